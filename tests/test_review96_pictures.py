"""The pictures and the hand panels as review96 found them: the hand's picture in the order its
player chose, the final table's figures the announcement's, plain labels, names that show
nothing told apart and translated, both cards of "take 2" marked (by shape too), "fancy font"
names drawn, the "You can meld" list in the buttons' words, no picture of an empty hand, and
one set of brackets after the computer's name."""

from __future__ import annotations

from typing import Any, cast

import pytest
from PIL import Image

import cogs.umtali.pictures.hand as hand_module
from cogs.umtali.arrange import HandOrder, arranged
from cogs.umtali.names import FALLBACK
from cogs.umtali.options import names_in
from cogs.umtali.pictures import HAND_FILE
from cogs.umtali.pictures.cards import MELDABLE, TAKEN, face
from cogs.umtali.pictures.fonts import drawable
from cogs.umtali.pictures.scene import hand_scene, table_scene
from cogs.umtali.play_panel import lay_label
from cogs.umtali.render import hand_embed, lay_moves, table_embed
from cogs.umtali.showing import Look, hand_of, table_of
from tests.discord_helpers import World, start_match
from umtali.events import HandEnded
from umtali.i18n import EN, tr_for
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR, PlayerView

RU = tr_for("ru")
NAMES = ("Alice", "Ben")


async def test_the_hand_picture_follows_the_order_the_player_chose(world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    view = live.session.view(seat)
    assert arranged(view, HandOrder.RANK) != arranged(view, HandOrder.SUIT)
    drawn = {}
    for order in HandOrder:
        shown = await hand_of(live, seat, look=Look(order=order)).drawn()
        (picture,) = [f for f in shown.files if f.filename == HAND_FILE]
        drawn[order] = picture.fp.read()
    assert drawn[HandOrder.RANK] != drawn[HandOrder.SUIT], "the picture ignores the order"
    for order in HandOrder:
        # The cards as the text and the card menu lay them out (a picture of its own each).
        assert hand_scene(view, EN, order=order).cards == tuple(arranged(view, order))


def _to_the_end(seed: int) -> tuple[PlayerView, HandEnded]:
    session = Session(RuleSet.english(), seed)
    ended = None
    while not session.over:
        seat = session.to_act
        for e in session.apply(GreedyPlayer().choose(session.view(seat)), seat):
            if isinstance(e, HandEnded):
                ended = e
    assert ended is not None
    return session.view(SPECTATOR), ended


def _ended_with_cards_left() -> tuple[PlayerView, HandEnded]:
    for seed in range(20):
        view, ended = _to_the_end(seed)
        if ended.leftover:
            return view, ended
    raise AssertionError("no session whose last hand scored cards left")


def test_the_final_table_shows_the_hand_score_its_announcement_gave() -> None:
    view, ended = _ended_with_cards_left()
    # The engine's own figures agree: the hand's score is what it melded and the cards left.
    assert view.hand_scores[-1] == ended.scores
    assert ended.scores[ended.went_out or 0] == (ended.melded[ended.went_out or 0]
                                                 + ended.leftover)
    scene = table_scene(view, NAMES, EN)
    embed = table_embed(view, NAMES, 1, tr=EN)
    for s in (0, 1):
        assert scene.seats[s].hand_points == ended.scores[s]
        assert scene.seats[s].score_line.startswith(f"+{ended.scores[s]} ")
        assert f"· {ended.scores[s]} point" in (embed.fields[s].name or "")


def test_the_table_picture_labels_the_game_score_and_the_games_won() -> None:
    view, _ = _ended_with_cards_left()
    for tr, words in ((EN, ("score {}", "games won {}")),
                      (RU, ("счёт {}", "побед: {}"))):
        for s, seat in enumerate(table_scene(view, NAMES, tr).seats):
            assert words[0].format(view.game_scores[s]) in seat.score_line, seat.score_line
            assert words[1].format(view.games_won[s]) in seat.score_line, seat.score_line


@pytest.mark.parametrize("blank", ["\u200b", "\u3164", "\u2800"])
def test_names_that_show_nothing_are_told_apart_by_seat_in_the_readers_words(
        blank: str) -> None:
    assert names_in((blank, blank * 3), None, None, RU) == ("Игрок 1", "Игрок 2")
    assert names_in((blank, blank), None, None, EN) == ("Player 1", "Player 2")
    assert names_in((FALLBACK, "Ben"), None, None, EN) == ("Player 1", "Ben")


async def test_the_panels_and_pictures_name_such_seats_by_number(world: World) -> None:
    live = await start_match(world)
    live.names = (FALLBACK, FALLBACK)  # as stored for two names that showed nothing
    table = table_of(live, look=Look(tr=RU))
    assert table.embed.title == "Умтали · Игрок 1 — Игрок 2"
    names = live.names_in(RU)
    assert [s.name for s in table_scene(live.session.view(SPECTATOR), names, RU).seats] == [
        "Игрок 1", "Игрок 2"]
    seat = live.session.to_act
    fields = hand_of(live, seat, look=Look(tr=RU)).embed.fields
    score = next(f for f in fields if (f.name or "").startswith("Партия"))
    # After the label (review164: this hand's points, then the game's).
    assert (score.value or "").split(": ", 1)[1].startswith("Игрок 1 "), score.value
    assert str(live.shown_name(seat)) != FALLBACK


def _took_two() -> PlayerView:
    for seed in range(40):
        session = Session(RuleSet.english(), seed)
        for _ in range(200):
            if session.over:
                break
            seat = session.to_act
            view = session.view(seat)
            if view.taken is not None and len([c for c in view.drawn if c in view.hand]) == 2:
                return view
            session.apply(GreedyPlayer().choose(view), seat)
    raise AssertionError("no deal where a seat took two from the pile")


def _faces(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, Image.Image]]:
    """Each card face the hand's picture pastes: the card, its outline, the sprite."""
    made: list[tuple[Any, Any, Image.Image]] = []
    real = face

    def spy(card: Any, *args: Any, **kwargs: Any) -> Image.Image:
        sprite = real(card, *args, **kwargs)
        made.append((card, args[3] if len(args) > 3 else kwargs.get("outline"), sprite))
        return sprite
    monkeypatch.setattr(hand_module, "face", spy)
    return made


def test_both_cards_taken_with_take_two_are_outlined_as_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    view = _took_two()
    made = _faces(monkeypatch)
    hand_module.draw_hand(hand_scene(view, EN))
    taken = {card for card, outline, _ in made if outline == TAKEN}
    assert taken == {c for c in view.drawn if c in view.hand}


def _top_edge(sprite: Image.Image) -> set[tuple[int, ...]]:
    """The colours along the straight part of a sprite's top edge (its outline)."""
    w = sprite.width
    rgb = sprite.convert("RGB")
    return {cast(tuple[int, int, int], rgb.getpixel((x, 1)))
            for x in range(w // 5, w - w // 5)}


def test_the_taken_mark_differs_from_the_meldable_one_in_shape_not_colour_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    view = _took_two()
    made = _faces(monkeypatch)
    hand_module.draw_hand(hand_scene(view, EN))
    edges = {outline: _top_edge(sprite) for _, outline, sprite in made if outline}
    assert edges[TAKEN] != {TAKEN}, "the taken card's outline is solid, as the meldable's"
    assert TAKEN in edges[TAKEN]
    if MELDABLE in edges:
        assert edges[MELDABLE] == {MELDABLE}


@pytest.mark.parametrize("name", ["𝓐𝓵𝓲𝓬𝓮", "Ⓐⓛⓘⓒⓔ", "Ａｌｉｃｅ", "𝐀𝐥𝐢𝐜𝐞"])
def test_fancy_font_names_are_drawn_as_their_plain_letters(name: str) -> None:
    assert drawable(name) == "Alice"
    assert drawable(name + " 🎲") == "Alice"


def _extending() -> PlayerView:
    for seed in range(40):
        session = Session(RuleSet.english(), seed)
        for _ in range(200):
            if session.over:
                break
            seat = session.to_act
            view = session.view(seat)
            kinds = {m.kind for m in view.legal_moves}
            if MoveKind.EXTEND in kinds and MoveKind.MELD in kinds:
                return view
            session.apply(GreedyPlayer().choose(view), seat)
    raise AssertionError("no turn with a meld and an extension to lay")


def test_the_you_can_meld_list_says_what_the_buttons_say_in_the_readers_words() -> None:
    view = _extending()
    # In the menus' order (tests/test_fix152_pictures.py).
    melds, extensions = lay_moves(view)
    lays: list[Move] = melds + extensions
    for tr in (EN, RU):
        embed = hand_embed(view, NAMES, 1, tr=tr, order=HandOrder.SUIT)
        field = next(f for f in embed.fields if f.name == tr("You can meld"))
        lines = (field.value or "").split("\n")
        assert lines[:len(lays)] == [lay_label(view, m, tr) for m in lays][:len(lines)]
        assert not any(w in (field.value or "") for w in ("extend", "meld "))


async def test_a_player_who_went_out_gets_no_picture_of_an_empty_hand(world: World) -> None:
    live = await start_match(world)
    session = live.session
    for _ in range(400):
        view = session.view(SPECTATOR)
        if view.went_out >= 0 and view.hand_sizes[view.went_out] == 0:
            break
        seat = session.to_act
        session.apply(GreedyPlayer().choose(session.view(seat)), seat)
    else:
        raise AssertionError("nobody went out")
    out = view.went_out
    shown = await hand_of(live, out, look=Look()).drawn()
    assert [f.filename for f in shown.files] == [], "a picture saying only 'no cards'"
    assert shown.embed.image.url is None
    # The other seat, still holding cards, has its picture.
    other = await hand_of(live, 1 - out, look=Look()).drawn()
    assert [f.filename for f in other.files] == [HAND_FILE]


def test_the_computers_name_is_followed_by_no_second_set_of_brackets() -> None:
    view, _ = _ended_with_cards_left()
    for tr in (EN, RU):
        names = names_in(("Alice", "computer"), 1, "normal", tr)
        assert names[1].count("(") == 1
        for seat in table_scene(view, names, tr).seats:
            assert "(" not in seat.tags, seat.tags
        dealer = table_scene(view, names, tr).seats[view.dealer]
        assert (tr.ctx("beside a name", "dealer")) in dealer.tags
