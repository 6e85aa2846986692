"""What the engine's faster paths must keep: the same draws from a seed, the same listings as the
general search, and views that reach nothing hidden."""

from __future__ import annotations

import gc
import random

import pytest

from umtali import RuleSet, Session
from umtali.cards import CARDS, JACKS, iter_cards
from umtali.hand import HandState, Phase
from umtali.listing import _meld_moves, discards, table_easy
from umtali.melds import cover
from umtali.moves import Move, MoveKind
from umtali.players import RandomPlayer
from umtali.reach import NEIGHBOURS
from umtali.search import can_meld_all
from umtali.session import shuffle
from umtali.view import SPECTATOR, PlayerView


def test_shuffle_draws_as_random_shuffle_does() -> None:
    for seed in range(300):
        cards = list(range(seed % 60))
        mine, theirs = list(cards), list(cards)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        shuffle(rng_a, mine)
        rng_b.shuffle(theirs)
        assert mine == theirs
        assert rng_a.random() == rng_b.random()  # the same draws, none more


def _listed(legal: tuple[Move, ...]) -> PlayerView:
    """A view holding only legal moves: ``RandomPlayer`` reads nothing else (where the view
    keeps them)."""
    view = PlayerView()
    view._legal = legal
    return view


def test_random_player_chooses_as_random_choice_does() -> None:
    for n in range(1, 70):
        legal = tuple(Move.discard(c % 52, c >= 52) for c in range(n))
        player, rng = RandomPlayer(n), random.Random(n)
        for _ in range(20):
            assert player.choose(_listed(legal)) == rng.choice(legal)
    with pytest.raises(IndexError):
        RandomPlayer().choose(_listed(()))


@pytest.mark.parametrize("variant", ["english", "russian"])
@pytest.mark.parametrize("optional", [False, True])
def test_quick_listings_match_the_general_ones(variant: str, optional: bool) -> None:
    """The meld phase's quick path (only discards) and the draw phase's quick check before the
    take-two search must list what the general listing and search do."""
    rules = RuleSet.named(variant, optional_melding=optional)
    rng = random.Random(7)
    quick = 0
    for seed in range(12):
        session = Session(rules, seed)
        while not session.over:
            h = session.hand
            if h.phase is Phase.MELD and not h.pair_laid:
                hand = h.hands[h.turn]
                general = _meld_moves(h, hand, table_easy(h), h.must_meld)
                assert h.listed() == general, session.moves
                quick += all(m.kind is MoveKind.DISCARD for m in general)
            if h.phase is Phase.DRAW and len(h.discard_pile) >= 2 and not h.face_down:
                a, b = h.discard_pile[-1], h.discard_pile[-2]
                two = (1 << a) | (1 << b)
                slow = can_meld_all(h.hands[h.turn] | two, h.melds, two, h.optional, {})
                assert (Move.take_two() in h.listed()) == slow, session.moves
            session.apply(rng.choice(session.legal_moves()))
    assert quick > 300


def test_discards_keep_the_taken_card_and_let_the_last_go_face_down() -> None:
    hand = (1 << 3) | (1 << 20) | (1 << 40)
    assert [m.card for m in discards(hand, 20)] == [CARDS[3], CARDS[40]]
    assert [m.card for m in discards(hand, -1)] == [CARDS[3], CARDS[20], CARDS[40]]
    assert discards(1 << 9, -1) == (Move.discard(9), Move.discard(9, True))
    assert discards((1 << 9) | (1 << 10), 10) == (Move.discard(9),)


def test_cover_by_suit_tables_matches_the_rule() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 13)))
        want = 0
        for c in iter_cards(hand):
            card = CARDS[c]
            same_rank = [x for x in iter_cards(hand) if CARDS[x].rank == card.rank]
            if card.rank != 11 and len(same_rank) >= 3:
                want |= 1 << c
            suit = [CARDS[x].rank for x in iter_cards(hand) if CARDS[x].suit == card.suit]
            for lo in range(max(1, card.rank - 2), card.rank + 1):
                if lo + 2 <= 10 and all(r in suit for r in range(lo, lo + 3)):
                    want |= 1 << c
            if card.rank in (12, 13) and {12, 13} <= set(suit):
                want |= 1 << c
        assert cover(hand) == want, hand
    assert NEIGHBOURS[0] & JACKS == 0


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` (classes not followed: they lead to modules)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        x = todo.pop()
        if id(x) in seen or isinstance(x, type):
            continue
        seen[id(x)] = x
        todo.extend(gc.get_referents(x))
    return list(seen.values())


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_a_view_reaches_neither_the_hand_nor_the_session(variant: str) -> None:
    """A computer player or a renderer is handed the view: nothing it can reach from it, read or
    not, may be the hand state (the opponent's cards, the stock order) or the session."""
    rng = random.Random(11)
    session = Session(RuleSet.named(variant), 4)
    walked = 0
    while not session.over:
        h = session.hand
        for seat in (0, 1, SPECTATOR):
            view = session.view(seat)
            for x in _reachable(view):
                assert x is not h and x is not session and not isinstance(x, HandState)
                assert x is not h.stock and x is not h.hands and x is not h.discard_pile
                walked += 1
            if seat >= 0 and seat != session.to_act:
                assert view.legal_moves == ()
        session.apply(rng.choice(session.legal_moves()))
    assert walked
