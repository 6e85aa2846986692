"""``way`` and ``pair_closed``, the take-two checks before ``may_reach``: a card whose only way
to the table is a pair, when a pair laid last is ruled out, is one ``may_reach`` says no to (so
the listing is what it was without them)."""

from __future__ import annotations

from tests.test_take_two_quick import hunt_hands
from umtali.cards import JACKS, RANK_MASK, Card, mask_of
from umtali.reach import NO_WAY, PAIR_ONLY, SOME_WAY, may_reach, pair_closed, stranded, way


def test_a_pair_only_card_is_not_reachable_when_no_pair_may_be_laid_last() -> None:
    said = 0
    for hand, easy, a, b in hunt_hands(11, 30000):
        two = 1 << a | 1 << b
        for card in (a, b):
            if way(card, hand, easy) == PAIR_ONLY and pair_closed(hand, easy, two):
                said += 1
                for optional in (False, True):
                    assert not may_reach(hand, (a, b), two, easy, optional), (hand, a, b, easy)
                    assert not may_reach(hand, (card,), two, easy, optional), (hand, card, easy)
    assert said > 2000


def test_way_is_stranded_and_the_pair_otherwise() -> None:
    seen = set()
    for hand, easy, a, b in hunt_hands(12, 5000):
        for card in (a, b):
            found = way(card, hand, easy)
            seen.add(found)
            assert (found == NO_WAY) == stranded(card, hand, easy)
            others = RANK_MASK[card % 13 + 1] & hand & ~(1 << card)
            if found == PAIR_ONLY:
                assert others.bit_count() == 1 and not (1 << card) & easy
    assert seen == {NO_WAY, PAIR_ONLY, SOME_WAY}


def test_a_pair_may_be_laid_last_with_at_most_one_lonely_card_not_required() -> None:
    # Lonely: no jack, not easy, no card of its rank or suit neighbour in hand (here 2D alone).
    hand = mask_of(Card.parse(c) for c in ("2D", "6S", "6H", "6C"))
    six = 1 << Card.parse("6S")
    assert not pair_closed(hand, JACKS, six)
    assert pair_closed(hand, JACKS, 1 << Card.parse("2D"))  # the lonely card is required
    assert pair_closed(hand | 1 << Card.parse("QC"), JACKS, six)  # two lonely cards: 2D, QC
