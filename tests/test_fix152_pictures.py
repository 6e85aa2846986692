"""The pictures tell as much as the text (review131): the hand's groups are apart by felt a
phone shows, at every hand size; a face-down top discard leaves the card under it in sight, as
a face-up one does; and the "You can meld" list is in the menus' order."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from cogs.umtali.arrange import HandOrder
from cogs.umtali.pictures.cards import MELDABLE, back, face, rank_size, strip, suit_top
from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.hand import CARD_H, CARD_W, RAISE, WIDTH, draw_hand, fan
from cogs.umtali.pictures.scene import HandScene, HandWords, table_scene
from cogs.umtali.pictures.table import (
    BAND,
    FELT,
    MARGIN,
    PILE_H,
    PILE_W,
    _side_height,
    draw_table,
)
from cogs.umtali.play_panel import lay_label
from cogs.umtali.render import MELDS_LISTED, hand_embed, lay_moves
from tests.helpers import position
from umtali.cards import RANK_TEXT, Card
from umtali.hand import Phase
from umtali.i18n import EN, Tr, tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR, PlayerView

RU = tr_for("ru")
NAMES = ("Alice", "Ben")
#: Twelve cards of four suits, a ten at the head of each: the most a row holds, the widest
#: corners. Fewer cards: the last ones left out.
FOUR_SUITS = ["10S", "JS", "QS", "10H", "JH", "QH", "10D", "JD", "QD", "10C", "JC", "QC"]


def _scene(cards: list[str], starts: tuple[int, ...]) -> HandScene:
    n = len(cards)
    # Every other card meldable (raised): the gaps must show between raised and lowered cards.
    return HandScene(tuple(Card.parse(c) for c in cards), tuple(i % 2 == 0 for i in range(n)),
                     (), False, HandWords("", "", "", "", ""), starts=starts)


def corner(card: Card) -> tuple[int, int]:
    """The right and bottom of a card's corner (its rank's ink and the suit under it), as
    ``cards.face`` lays it out."""
    size = rank_size(CARD_H)
    pad = max(3, CARD_W // 14)
    top = pad - size // 8
    small = round(size * 0.8)
    ink = font(size).getbbox(RANK_TEXT[card.rank])
    return pad + max(round(ink[2]), small) + 1, max(top + round(ink[3]),
                                                    suit_top(size, top) + small) + 1


def _felt_runs(img: Image.Image) -> list[int]:
    """The widths of the runs of bare felt inside the fan, along a line through every card
    (raised or not) above any tag."""
    y = 12 + RAISE + 40
    row = [img.getpixel((x, y)) == FELT for x in range(img.width)]
    runs: list[int] = []
    x = MARGIN
    while x < img.width and row[x]:
        x += 1
    while x < img.width:
        if row[x]:
            start = x
            while x < img.width and row[x]:
                x += 1
            if x < img.width:  # felt on to the picture's edge is after the fan
                runs.append(x - start)
        x += 1
    return runs


@pytest.mark.parametrize("n", [10, 11, 12])
def test_the_suits_of_a_full_hand_are_apart_by_felt_a_phone_shows(n: int) -> None:
    """The cards overlap, so a gap added to the fan showed more of the card before it (7
    pixels with twelve cards), not felt: the groups ran together. Now each group ends with its
    card's edge and at least 12 pixels of felt (about 7 on a phone's 400), and nothing else
    in the fan is felt."""
    cards = FOUR_SUITS[:n]
    starts = tuple(i for i in (3, 6, 9) if i < n)
    img = draw_hand(_scene(cards, starts))
    assert img.width == WIDTH
    runs = _felt_runs(img)
    assert len(runs) == len(starts), runs
    assert min(runs) >= 12, runs


def test_a_hand_by_rank_of_twelve_ranks_keeps_every_card_apart() -> None:
    """By rank, twelve cards of twelve ranks are twelve groups: eleven gaps, each still felt
    (narrower: the corners come first), every card raised and outlined or not."""
    cards = ["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S", "10H", "JD", "QC"]
    for meldable in ((True,) * 12, (False,) * 12, tuple(i % 2 == 0 for i in range(12))):
        scene = dataclasses.replace(_scene(cards, tuple(range(1, 12))), meldable=meldable)
        runs = _felt_runs(draw_hand(scene))
        assert len(runs) == 11 and min(runs) >= 6, runs


@pytest.mark.parametrize("cards, starts", [
    (FOUR_SUITS, (3, 6, 9)),
    (FOUR_SUITS[:10], (3, 6, 9)),
    (["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S", "10H", "JD", "QC"],
     tuple(range(1, 12))),
    (["2S", "3S", "4S", "5S", "10S", "JH", "QH", "KH", "10D", "10C"], (5, 8, 9)),
    (["3S", "10H"], (1,)),
])
def test_every_corner_in_the_fan_is_drawn_whole(cards: list[str], starts: tuple[int, ...]
                                                ) -> None:
    """Each card's corner (its rank and suit) shows as on the card: the next card, or a
    group's cut edge, covers none of it."""
    scene = _scene(cards, starts)
    img = draw_hand(scene)
    for i, (x, shown) in enumerate(fan(scene.cards, scene.starts)[0]):
        card = scene.cards[i]
        right, bottom = corner(card)
        assert shown >= right, (card, shown, right)
        top = 12 + (0 if scene.meldable[i] else RAISE)
        whole = face(card, CARD_W, CARD_H, False, MELDABLE if scene.meldable[i] else None)
        sprite = Image.new("RGB", (CARD_W, CARD_H), FELT)
        sprite.paste(whole, (0, 0), whole)
        # Inside the border and below the round corner: the rank's ink and the suit's.
        drawn = img.crop((x + 4, top + 8, x + right, top + bottom))
        assert drawn.tobytes() == sprite.crop((4, 8, right, bottom)).tobytes(), card


def _face_down_on_top() -> PlayerView:
    session = Session(RuleSet.english(), 12)
    for _ in range(25):
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    view = session.view(SPECTATOR)
    assert view.top_face_down and len(view.discard_pile) > 1
    return view


def _pile_left(scene_seat0_height: int) -> tuple[int, int]:
    """Where the card under the pile's top is drawn: its top-left corner."""
    return MARGIN + PILE_W + 30, 44 + BAND + scene_seat0_height + 10


@pytest.mark.parametrize("tr", [EN, RU])
def test_a_face_down_top_leaves_the_card_under_it_in_sight(tr: Tr) -> None:
    """The table's text names the pile's cards; its picture hid the card under a face-down
    top (a face-up top is drawn over the card beneath, which peeks out). Now both are: the
    card beneath face up, the face-down card's back on it, never its face."""
    view = _face_down_on_top()
    scene = table_scene(view, NAMES, tr)
    assert scene.top is None and scene.face_down
    assert scene.below == view.discard_pile[-2] and scene.below is not None
    # The face-down card's face is nowhere in the scene (the spectator's view has it as None).
    laid = {c for s in scene.seats for m in s.melds for c, _ in m.cards}
    assert view.discard_pile[-1] is None and scene.below not in laid
    img = draw_table(scene)
    x, y = _pile_left(_side_height(scene.seats[0]))
    sprite = face(scene.below, PILE_W, PILE_H)
    bare = Image.new("RGB", sprite.size, FELT)
    bare.paste(sprite, (0, 0), sprite)
    peek = img.crop((x, y + 2, x + 20, y + PILE_H - 2))
    assert peek.tobytes() == bare.crop((0, 2, 20, PILE_H - 2)).tobytes()
    # The top is a back, drawn over the card beneath.
    top = back(PILE_W, PILE_H)
    tx = x + strip(PILE_W, PILE_H)
    shown = img.crop((tx + 8, y + 8, tx + PILE_W - 8, y + PILE_H - 8))
    assert shown.tobytes() == top.convert("RGB").crop((8, 8, PILE_W - 8, PILE_H - 8)).tobytes()


def test_a_face_down_card_under_a_face_up_top_is_drawn_as_a_back() -> None:
    """The player who went out laid their last card face down; the other's last discard,
    face up, went on it. The pile has two cards and more: the one under the top shows as a
    back, not as nothing."""
    hand = position(hands=("", "4C"), discard="5H 9D 7S 8S", turn=1, phase=Phase.MELD,
                    out=0)
    hand.down_below = True
    session = Session(RuleSet.english(), 1)
    session.hand = hand
    view = session.view(SPECTATOR)
    assert view.discard_pile[-2] is None and not view.top_face_down
    scene = table_scene(view, NAMES, EN)
    img = draw_table(scene)
    x, y = _pile_left(_side_height(scene.seats[0]))
    sprite = back(PILE_W, PILE_H)
    bare = Image.new("RGB", sprite.size, FELT)
    bare.paste(sprite, (0, 0), sprite)
    peek = img.crop((x, y + 2, x + 20, y + PILE_H - 2))
    assert peek.tobytes() == bare.crop((0, 2, 20, PILE_H - 2)).tobytes()
    # Without the card beneath, the same place is felt: the picture holds it, not by chance.
    plain = draw_table(dataclasses.replace(scene, pile=1))
    assert plain.crop((x, y + 2, x + 20, y + PILE_H - 2)).tobytes() != peek.tobytes()


def test_you_can_meld_lists_the_lays_in_the_menus_order() -> None:
    """The longest melds first, then the extensions, as the menus and buttons have them (the
    list had the legal moves' order: a run of three before the run of four it is part of)."""
    hand = position(hands=("2H 3H 4H 5H 7C 7D 7S 7H 9H KD", "AC"), table=["1: 9S 9C 9D"],
                    turn=0, phase=Phase.MELD)
    session = Session(RuleSet.english(), 1)
    session.hand = hand
    view = session.view(0)
    melds, extensions = lay_moves(view)
    lays = melds + extensions
    legal = [m for m in view.legal_moves if m in lays]
    assert legal != lays and extensions  # the orders differ: the test can tell them apart
    for tr in (EN, RU):
        embed = hand_embed(view, NAMES, 1, tr=tr, order=HandOrder.SUIT)
        field = next(f for f in embed.fields if f.name == tr("You can meld"))
        lines = (field.value or "").split("\n")
        assert lines[:MELDS_LISTED] == [lay_label(view, m, tr) for m in lays][:MELDS_LISTED]
