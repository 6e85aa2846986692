"""The pictures: drawn from views only, hidden cards never on the public table, highlights
from the legal moves, the cache, the font."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

from cogs.umtali.pictures import CACHE, draw_hand_png, draw_table_png, hand_png, table_png
from cogs.umtali.pictures.cache import PictureCache
from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.scene import hand_scene, table_scene
from umtali.cards import CARDS, Card
from umtali.i18n import EN
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Deal, Session
from umtali.view import SPECTATOR

NAMES = ("Алёша", "ben")


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _deal(seed: int) -> Deal:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return Deal(dealer=1, hands=(tuple(deck[:11]), tuple(deck[11:21])), stock=tuple(deck[21:]))


def _first_hand(deal: Deal, moves: list[str] | None = None) -> tuple[Session, list[str], set[int]]:
    """Play the first hand of a session from ``deal`` (greedy moves, or ``moves``); the moves
    made and every card that was ever public (on the table or the discard pile)."""
    session = Session(RuleSet.english(optional_melding=True), 7, first_deal=deal)
    played: list[str] = []
    public: set[int] = set()
    while session.hand_no == 1 and not session.over:
        view = session.view(SPECTATOR)
        public |= {c for c in view.discard_pile if c is not None}
        public |= {c for m in view.melds for c in m.cards}
        if moves is not None and len(played) == len(moves):
            break
        text = moves[len(played)] if moves is not None else str(
            GreedyPlayer().choose(session.view(session.to_act)))
        session.apply_text(text)
        played.append(text)
    return session, played, public


def _swapped(deal: Deal, a: int, b: int) -> Deal:
    def swap(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(b if c == a else a if c == b else c for c in cards)
    return Deal(deal.dealer, (swap(deal.hands[0]), swap(deal.hands[1])), swap(deal.stock))


def _tables(deal: Deal, moves: list[str]) -> list[bytes]:
    """The public table drawn afresh (no cache) after the deal and after each move."""
    session = Session(RuleSet.english(optional_melding=True), 7, first_deal=deal)
    out = [draw_table_png(session.view(SPECTATOR), NAMES)]
    for text in moves:
        session.apply_text(text)
        out.append(draw_table_png(session.view(SPECTATOR), NAMES))
    return out


def test_hidden_cards_never_change_the_public_table() -> None:
    """Two deals that differ only in cards nobody ever sees (in a hand, and in the stock)
    give the same table picture, byte for byte, after every move of the same play."""
    deal = _deal(3)
    _, moves, public = _first_hand(deal)
    hidden = [c for c in range(52) if c not in public]
    in_hand = [c for c in hidden if c in deal.hands[0] or c in deal.hands[1]]
    in_stock = [c for c in hidden if c in deal.stock]
    rng = random.Random(5)
    pairs = [(a, b) for a in in_hand for b in in_stock if CARDS[a].points == CARDS[b].points]
    rng.shuffle(pairs)
    compared = 0
    for a, b in pairs[:40]:
        other = _swapped(deal, a, b)
        try:
            _first_hand(other, moves)
        except ValueError:
            continue  # the swap changed what is legal: not the same play
        seat = 0 if a in deal.hands[0] else 1
        first = Session(RuleSet.english(optional_melding=True), 7, first_deal=deal)
        second = Session(RuleSet.english(optional_melding=True), 7, first_deal=other)
        # The hands differ, so a picture made from a seat's view would differ too.
        assert first.view(seat).hand != second.view(seat).hand
        assert _tables(deal, moves) == _tables(other, moves)
        compared += 1
        if compared == 2:
            break
    assert compared, "no swap of unseen cards kept the play legal"
    # And the pictures do show the table: a move changes them.
    tables = _tables(deal, moves[:3])
    assert len(set(tables)) > 1


def test_the_public_table_takes_only_the_spectators_view() -> None:
    session = Session(RuleSet.english(), 1)
    with pytest.raises(ValueError, match="spectator"):
        table_png(session.view(0), NAMES)
    with pytest.raises(ValueError, match="no hand"):
        hand_png(session.view(SPECTATOR))


def test_the_hand_marks_the_cards_a_legal_move_melds_and_the_card_taken() -> None:
    found = 0
    for seed in range(40):
        session = Session(RuleSet.russian(), seed)
        for _ in range(80):
            if session.over:
                break
            seat = session.to_act
            view = session.view(seat)
            scene = hand_scene(view, EN)
            melding = set()
            for m in view.legal_moves:
                if m.kind in (MoveKind.MELD, MoveKind.EXTEND):
                    melding |= set(m.card_list)
            assert {c for c, lit in zip(scene.cards, scene.meldable, strict=True) if lit} \
                == melding
            # Every card taken from the pile this turn (two by "take 2"), still held.
            assert set(scene.taken) == ({c for c in view.drawn if c in view.hand}
                                        if view.taken is not None else set())
            assert view.taken is None or view.taken not in view.hand or \
                view.taken in scene.taken
            if melding and view.taken is not None:
                found += 1
            move = GreedyPlayer().choose(view)
            session.apply(move, seat)
        if found > 3:
            break
    assert found


def test_the_hand_picture_changes_with_what_it_marks() -> None:
    session = Session(RuleSet.english(), 2)
    view = session.view(session.to_act)
    scene = hand_scene(view, EN)
    assert any(scene.meldable), "the first player of an English deal may meld"
    plain = dataclasses.replace(scene, meldable=tuple(False for _ in scene.cards), taken=())
    from cogs.umtali.pictures import encode
    from cogs.umtali.pictures.hand import draw_hand
    assert encode(draw_hand(scene)) != encode(draw_hand(plain))


def _colours(data: bytes) -> set[tuple[int, int, int]]:
    img = _png(data).convert("RGB")
    return {img.getpixel((x, y)) for x in range(0, img.width, 2)  # type: ignore[misc]
            for y in range(0, img.height, 2)}


def test_four_colours_paint_diamonds_blue_and_clubs_green() -> None:
    session = Session(RuleSet.english(), 4)
    seat = session.to_act
    view = session.view(seat)
    suits = {c.suit for c in view.hand}
    two, four = draw_hand_png(view), draw_hand_png(view, four_colour=True)
    assert (two != four) == bool(suits & {2, 3})
    if 2 in suits:
        assert (28, 84, 205) in _colours(four) and (28, 84, 205) not in _colours(two)


def test_the_same_scene_is_drawn_once_and_the_cache_is_bounded() -> None:
    cache = PictureCache(size=2)
    made: list[int] = []

    def make(n: int) -> bytes:
        made.append(n)
        return bytes([n])

    assert cache.get("a", lambda: make(1)) == b"\x01"
    assert cache.get("a", lambda: make(2)) == b"\x01"
    cache.get("b", lambda: make(3))
    cache.get("c", lambda: make(4))
    assert len(cache) == 2
    cache.get("a", lambda: make(5))  # pushed out by b and c: drawn again
    assert made == [1, 3, 4, 5]
    assert cache.hits == 1 and cache.misses == 4

    session = Session(RuleSet.english(), 9)
    view = session.view(SPECTATOR)
    first = table_png(view, NAMES)
    hits = CACHE.hits
    assert table_png(session.view(SPECTATOR), NAMES) == first
    assert CACHE.hits == hits + 1
    assert table_png(view, NAMES, four_colour=True) != first or not any(
        c.suit in (2, 3) for c in view.discard_pile if c is not None)


def test_cyrillic_names_are_drawn_with_real_glyphs() -> None:
    f = font(26)
    missing = f.getmask("\ue000").getbbox()  # a private-use character: the font's blank box
    for ch in "АлёшаЖЯ":
        assert f.getmask(ch).getbbox() is not None
        assert bytes(f.getmask(ch)) != bytes(f.getmask("\ue000")) or missing is None
    names_a = table_scene(Session(RuleSet.english(), 1).view(SPECTATOR), ("Алёша", "b"), EN)
    assert names_a.seats[0].name == "Алёша"


def test_pictures_stay_small_even_with_a_crowded_table() -> None:
    session = Session(RuleSet.english(optional_melding=False), 12)
    largest = 0
    while not session.over and session.hand_no < 3:
        seat = session.to_act
        session.apply(GreedyPlayer().choose(session.view(seat)), seat)
        largest = max(largest, len(draw_table_png(session.view(SPECTATOR), NAMES)))
        if not session.over and session.to_act >= 0:
            largest = max(largest, len(draw_hand_png(session.view(session.to_act))))
    assert 0 < largest <= 150_000
    img = _png(draw_table_png(session.view(SPECTATOR), NAMES))
    assert img.format == "PNG" and img.width == 720
    assert Card.parse("10D") in CARDS
