"""``stranded``, the cheapest take-two check, may say no only where ``may_reach`` and the search
say no: a card it strands has no way to the table."""

from __future__ import annotations

import random

from umtali.cards import JACKS, RANK_MASK
from umtali.melds import classify, new_meld
from umtali.reach import may_reach, stranded
from umtali.search import can_meld_all


def hunt_hands(seed: int, count: int) -> list[tuple[int, int, int, int]]:
    """Hands of 2 to 12 cards, what the table takes, and two of the hand's cards to take."""
    rng = random.Random(seed)
    # Court cards and tens weighted up, as the hard hunt does: more runs, marriages and jacks.
    weights = [4 if c % 13 + 1 >= 9 else 1 for c in range(52)]
    out = []
    for _ in range(count):
        size = rng.randint(2, 12)
        cards: set[int] = set()
        while len(cards) < size:
            cards.add(rng.choices(range(52), weights)[0])
        hand = sum(1 << c for c in cards)
        # What the table takes: now and then a rank or a few cards.
        easy = JACKS
        if rng.random() < 0.5:
            easy |= RANK_MASK[rng.randint(1, 13)] & ~hand
        for _ in range(rng.randint(0, 3)):
            easy |= 1 << rng.randrange(52)
        a, b = rng.sample(sorted(cards), 2)
        out.append((hand, easy, a, b))
    return out


def test_a_stranded_card_is_never_reachable() -> None:
    said = 0
    for hand, easy, a, b in hunt_hands(5, 20000):
        for card in (a, b):
            if stranded(card, hand, easy):
                said += 1
                assert not may_reach(hand, (card,), 1 << card, easy, True), (hand, card, easy)
                assert not may_reach(hand, (card,), 1 << card, easy, False)
    assert said > 3000


def test_a_stranded_card_cannot_be_melded_by_the_search() -> None:
    rng = random.Random(8)
    said = 0
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randint(3, 11))
        hand = sum(1 << c for c in cards)
        # A table of a few real melds from cards not in hand.
        rest = [c for c in range(52) if not hand >> c & 1]
        melds = []
        for _ in range(rng.randint(0, 3)):
            start = rng.choice(rest)
            run = {start, start + 1, start + 2} if start % 13 <= 7 else set()
            trio = sum(1 << c for c in run)
            if run and all(c in rest for c in run) and classify(trio) is not None:
                kind = classify(trio)
                assert kind is not None
                melds.append(new_meld(kind, trio))
                rest = [c for c in rest if c not in run]
        easy = JACKS
        for m in melds:
            easy |= m.accepts
        for card in cards:
            if stranded(card, hand, easy):
                said += 1
                for optional in (False, True):
                    assert not can_meld_all(hand, melds, 1 << card, optional, {}), (hand, card)
    assert said > 1000
