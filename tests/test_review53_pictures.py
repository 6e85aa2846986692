"""The table picture as a player reads it (review53): what is written on the felt keeps a
contrast a phone can read, and the status's colour names nobody it is not about."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.umtali.pictures import draw_table_png
from cogs.umtali.pictures.scene import table_scene
from cogs.umtali.pictures.table import (
    BAND,
    DIM,
    FELT,
    FELT_LIT,
    MARGIN,
    PILE_W,
    SEAT,
    TEXT,
    WIDTH,
    _side_height,
)
from umtali.i18n import EN, tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR

NAMES = ("Alice", "Ben")
RGB = tuple[int, int, int]


def _luminance(c: RGB) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG's contrast ratio of two colours."""
    dark, light = sorted((_luminance(a), _luminance(b)))
    return (light + 0.05) / (dark + 0.05)


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_every_text_on_the_felt_and_on_the_acting_band_reads_on_a_phone() -> None:
    """The names (each seat's colour), the scores and the labels are drawn on the felt and on
    the band of the seat to act; shown at about 55% on a phone, even a 26-pixel name is small
    text there, so each keeps WCAG's 4.5:1 on both (the acting player's name, the one that
    matters most, was 2.95:1 in blue on the lit band)."""
    session = Session(RuleSet.english(), 3)
    view = session.view(SPECTATOR)
    img = _png(draw_table_png(view, NAMES))
    # The acting band is drawn in FELT_LIT: its right end, under no text.
    scene = table_scene(view, NAMES, EN)
    y = 44 + BAND + _side_height(scene.seats[0]) + 134 + 2 if view.to_act == 1 else 44 + 2
    assert img.getpixel((WIDTH - 2, y)) == FELT_LIT
    for background in (FELT, FELT_LIT):
        for colour in (TEXT, DIM, *SEAT):
            assert contrast(colour, background) >= 4.5, (colour, background)


def _status_colours(png: bytes, scene_view: object) -> set[RGB]:
    img = _png(png)
    from umtali.view import PlayerView
    assert isinstance(scene_view, PlayerView)
    scene = table_scene(scene_view, NAMES, EN)
    top = 44 + BAND + _side_height(scene.seats[0])
    left = MARGIN + 2 * PILE_W + 60
    box = img.crop((left, top + 4, WIDTH, top + 130))
    return {box.getpixel((x, y)) for x in range(box.width)  # type: ignore[misc]
            for y in range(box.height)}


def test_the_end_of_a_session_is_written_in_the_winners_colour_not_seat_0s() -> None:
    """Every name is in its seat's colour; with nobody to act the status was gold, which is
    the first seat's colour: "Ben wins the session" read as the first player's line."""
    session = Session(RuleSet.english(), 2)
    while not session.over:
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    view = session.view(SPECTATOR)
    assert view.winner == 1
    colours = _status_colours(draw_table_png(view, NAMES), view)
    assert SEAT[1] in colours
    assert SEAT[0] not in colours


def test_a_cancelled_match_is_written_in_neither_seats_colour() -> None:
    session = Session(RuleSet.english(), 3)
    view = session.view(SPECTATOR)
    colours = _status_colours(draw_table_png(view, NAMES, ended="The match was cancelled"), view)
    assert TEXT in colours
    assert SEAT[0] not in colours and SEAT[1] not in colours


def _status_rows(png: bytes, view: object) -> list[set[RGB]]:
    """The colours of each of the status's lines (28 pixels apart at the largest size)."""
    from umtali.view import PlayerView
    assert isinstance(view, PlayerView)
    img = _png(png)
    scene = table_scene(view, LONG, EN)
    top = 44 + BAND + _side_height(scene.seats[0]) + 10 + 8
    left = MARGIN + PILE_W + 30 + 40 + PILE_W + 26
    return [_colours(img.crop((left, top + i * 34 + 6, WIDTH, top + i * 34 + 26)))
            for i in range(3)]


def _colours(box: Image.Image) -> set[RGB]:
    return {box.getpixel((x, y)) for x in range(box.width)  # type: ignore[misc]
            for y in range(box.height)}


LONG = ("Alice", "Жжжжжжжжжжж Шшшшшшшшшш Щщщщщщщщщщ")


def test_the_status_colours_the_name_whole_and_only_the_name() -> None:
    """The status names the player in their seat's colour and says what to do in white. The
    colour went by line, not by name: a name wrapped to a second line lost its colour there,
    and a short name's first line painted the words after it ("to meld") in the seat's colour
    while the rest of the sentence was white."""
    session = Session(RuleSet.english(), 3)
    view = session.view(SPECTATOR)
    assert view.to_act == 1
    rows = _status_rows(draw_table_png(view, LONG), view)
    # The name's third word on the second line, in seat 1's colour; the action beside it white.
    assert SEAT[1] in rows[1] and TEXT in rows[1]
    from cogs.umtali.pictures.table import status_runs
    # In words: the name, and nothing but the name, is coloured, however the lines fall.
    for name in (*LONG, "Guinevere of the Round Table"):
        status = f"{name} to meld and discard"
        for width in (400, 456):
            _, lines = status_runs(status, name, width)
            coloured = " ".join(t for line in lines for t, lit in line if lit)
            plain = " ".join(t for line in lines for t, lit in line if not lit)
            assert (coloured, plain) == (name, "to meld and discard"), (name, width, lines)


@pytest.mark.parametrize("lang, said", [("en", "(last turn)"), ("ru", "(последний ход)")])
def test_the_last_turn_is_called_the_last_turn_while_melding_too(lang: str, said: str) -> None:
    """After a player goes out the other plays one last turn: the picture said so while they
    were to draw, then, once they had drawn (or with no draw at all), "to meld and discard" as
    on any turn, while the text beside it says "plays the last turn"."""
    session = Session(RuleSet.english(), 12)
    for _ in range(25):
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    view = session.view(SPECTATOR)
    assert view.went_out == 0 and view.to_act == 1 and view.phase == "meld"
    status = table_scene(view, NAMES, tr_for(lang)).status
    assert status.startswith("Ben") and status.endswith(said), status


#: Machado, Oliveira and Fernandes (2009), severity 1: linear RGB as a deuteranope and a
#: protanope see it (together about 6% of men).
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
              (-0.003882, -0.048116, 1.051998))


def _linear(c: RGB) -> tuple[float, float, float]:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return channel(c[0]), channel(c[1]), channel(c[2])


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_apart(a: RGB, b: RGB, matrix: tuple[tuple[float, ...], ...]) -> float:
    """CIE76 colour difference of ``a`` and ``b`` as seen through ``matrix``."""
    def seen(c: RGB) -> tuple[float, float, float]:
        lin = _linear(c)
        m0, m1, m2 = (sum(k * v for k, v in zip(row, lin, strict=True)) for row in matrix)
        return _lab((m0, m1, m2))
    pa, pb = seen(a), seen(b)
    return float(sum((u - v) ** 2 for u, v in zip(pa, pb, strict=True)) ** 0.5)


def test_the_four_colour_suits_stay_apart_for_red_green_colour_blindness() -> None:
    """The four-colour deck tells suits apart by colour; its green clubs had nearly the
    lightness of the red hearts, so a deuteranope saw them 16 apart (CIE76; 20 is a
    difference seen at a glance): hearts and clubs looked one colour. Every pair keeps 20
    for deuteranopes and protanopes, and each colour 4.5:1 on the card for its rank."""
    from cogs.umtali.pictures.cards import FACE, suit_colour
    colours = [suit_colour(s, True) for s in range(4)]
    for i, a in enumerate(colours):
        assert contrast(a, FACE) >= 4.5, a
        for b in colours[i + 1:]:
            for matrix in (DEUTERANOPIA, PROTANOPIA):
                assert seen_apart(a, b, matrix) >= 20, (a, b, matrix is DEUTERANOPIA)


def test_a_full_hand_of_four_suits_leaves_every_ten_whole() -> None:
    """The largest hand a player holds (twelve cards, after taking two from the pile) across
    all four suits: the gaps between suits squeezed the fan until the next card covered the
    right of a 10's "0". The corner of a 10 at the start of the fan is drawn as on the card."""
    from cogs.umtali.pictures.cards import face, rank_size
    from cogs.umtali.pictures.fonts import font
    from cogs.umtali.pictures.hand import CARD_H, CARD_W, RAISE, draw_hand
    from cogs.umtali.pictures.scene import HandScene, HandWords
    from umtali.cards import Card
    cards = tuple(Card.parse(c) for c in
                  ["10S", "JS", "QS", "10H", "JH", "QH", "10D", "JD", "QD", "10C", "JC", "QC"])
    scene = HandScene(cards, (False,) * 12, (), False, HandWords("", "", "", "", ""),
                      starts=(3, 6, 9))
    img = draw_hand(scene)
    size = rank_size(CARD_H)
    pad = max(3, CARD_W // 14)
    right = pad + round(font(size).getbbox("10")[2]) + 1
    bottom = pad - size // 8 + round(font(size).getbbox("10")[3]) + 1
    sprite = Image.new("RGB", (CARD_W, CARD_H), FELT)
    card = face(cards[0], CARD_W, CARD_H)
    sprite.paste(card, (0, 0), card)
    drawn = img.crop((MARGIN, 12 + RAISE, MARGIN + right, 12 + RAISE + bottom))
    assert drawn.tobytes() == sprite.crop((0, 0, right, bottom)).tobytes()


def test_the_status_ends_above_the_labels_under_the_piles() -> None:
    """Three lines of status at its largest size ran 13 pixels below the piles, into the row
    of their labels, where Russian's "рубашкой вверх · 5" reaches past the status's left
    edge: the last line's "(" and the label's "5" met. The status's ink stays above that row."""
    from PIL import ImageChops

    from cogs.umtali.pictures.table import PILE_H, draw_table
    session = Session(RuleSet.english(), 12)
    for _ in range(25):
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    view = session.view(SPECTATOR)
    scene = table_scene(view, ("Алёша Попович", "Guinevere of the Round Table"), tr_for("ru"))
    assert scene.face_down
    import dataclasses
    shown = draw_table(scene)
    bare = draw_table(dataclasses.replace(scene, status=""))
    box = ImageChops.difference(shown, bare).getbbox()
    assert box is not None
    top = 44 + BAND + _side_height(scene.seats[0]) + 10
    assert box[3] <= top + PILE_H + 3, (box, top + PILE_H + 3)
