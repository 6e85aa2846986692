"""``may_take_two`` says yes at once when one new meld of the hand lays both taken cards: the
search would take that meld first, and the quick check says yes for the cards of a new meld. The
answer must be the one without the shortcut, for every position."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tests.test_take_two_quick import hunt_hands
from umtali import RuleSet, Session
from umtali.listing import table_easy
from umtali.melds import Meld, new_melds
from umtali.reach import PAIR_ONLY, closed_by, lonely_cards, may_reach, way
from umtali.search import _live, _search, can_meld_all, in_one_meld, may_take_two


def _together(hand: int, first: int, second: int) -> bool:
    return in_one_meld(hand, first, second)


def _without_shortcut(
    hand: int, melds: Sequence[Meld], first: int, second: int, optional: bool, easy: int
) -> bool:
    """``may_take_two`` as it was before the shortcut."""
    two = 1 << first | 1 << second
    way_first, way_second = way(first, hand, easy), way(second, hand, easy)
    if not way_first or not way_second:
        return False
    lonely = -1
    if PAIR_ONLY in (way_first, way_second):
        lonely = lonely_cards(hand, easy)
        if closed_by(lonely, two):
            return False
    return may_reach(hand, (first, second), two, easy, optional, lonely) and _search(
        hand, _live(melds, hand)[0], two, optional, {}
    )


def test_together_is_exactly_a_new_meld_holding_both() -> None:
    rng = random.Random(7)
    hits = 0
    for _ in range(20000):
        cards = rng.sample(range(52), rng.randint(2, 12))
        hand = sum(1 << c for c in cards)
        first, second = cards[0], cards[1]
        two = 1 << first | 1 << second
        found = any(m & two == two for _, m in new_melds(hand))
        assert _together(hand, first, second) == found, (hand, first, second)
        hits += found
    # A sequence, a group and a marriage of the two, and two cards never together.
    for hand, first, second in ((0b111, 0, 2), (0b1110, 1, 2), (1 | 1 << 13 | 1 << 26, 0, 13),
                                (0b11 << 11, 11, 12)):
        assert _together(hand, first, second) and _together(hand, second, first)
    assert not _together(0b11, 0, 1)  # neighbours with no third
    assert not _together(1 << 10 | 1 << 23 | 1 << 36, 10, 23)  # jacks make no group
    assert hits > 200


@pytest.mark.parametrize("optional", [False, True])
def test_the_answer_is_the_one_without_the_shortcut_on_hunted_hands(optional: bool) -> None:
    shortcut = 0
    for hand, easy, a, b in hunt_hands(21, 20000):
        said = may_take_two(hand, [], a, b, optional, easy)
        assert said == _without_shortcut(hand, [], a, b, optional, easy), (hand, easy, a, b)
        shortcut += _together(hand, a, b)
    assert shortcut > 400


@pytest.mark.parametrize("variant", ["english", "russian"])
@pytest.mark.parametrize("optional", [False, True])
def test_the_answer_is_the_one_without_the_shortcut_in_play(variant: str, optional: bool) -> None:
    """Every draw phase of random sessions with two cards on the pile: against their tables,
    the hand to draw and random hands of the cards not on the table."""
    rules = RuleSet.named(variant, optional_melding=optional)
    rng = random.Random(11)
    checked = yes = 0
    for seed in range(12):
        session = Session(rules, f"together-{seed}")
        while not session.over:
            h = session.hand
            pile = h.discard_pile
            if h.phase.value == "draw" and len(pile) >= 2 and not h.face_down:
                first, second = pile[-1], pile[-2]
                easy = table_easy(h)
                free = h.hands[0] | h.hands[1] | sum(1 << c for c in h.stock)
                pool = [c for c in range(52) if free >> c & 1]
                hands = [h.hands[h.turn]]
                for _ in range(3):
                    hands.append(sum(1 << c for c in rng.sample(pool, min(len(pool), 9))))
                for hand in hands:
                    hand |= 1 << first | 1 << second
                    said = may_take_two(hand, h.melds, first, second, h.optional, easy)
                    assert said == _without_shortcut(
                        hand, h.melds, first, second, h.optional, easy
                    ), (session.moves, hand)
                    assert said == can_meld_all(hand, h.melds, 1 << first | 1 << second,
                                                h.optional)
                    checked += 1
                    yes += said
            legal = session.legal_moves()
            session.apply(rng.choice(legal))
    assert checked > 500 and yes > 20


def test_two_cards_each_only_in_a_pair_of_two_ranks_are_never_both_laid() -> None:
    """``may_take_two`` says no at once when each taken card's only way is a pair and they are
    of two ranks (a pair is only ever the last meld): the search says no too."""
    said = 0
    for hand, easy, a, b in hunt_hands(23, 30000):
        if way(a, hand, easy) == way(b, hand, easy) == PAIR_ONLY and (a - b) % 13:
            said += 1
            two = 1 << a | 1 << b
            for optional in (False, True):
                assert not _search(hand, (), two, optional, {}), (hand, a, b)
                assert not may_take_two(hand, [], a, b, optional, easy)
    assert said > 500
