"""``pairs`` reads each rank's pairs from a table: the same pairs, in the same order (rank by
rank, lowest first), as two cards of each rank taken in turn."""

from __future__ import annotations

import random
from itertools import combinations

from umtali.cards import JACK, RANK_MASK, iter_cards
from umtali.melds import pairs


def _pairs_rank_by_rank(hand: int) -> list[int]:
    out: list[int] = []
    for rank in range(1, 14):
        if rank == JACK:
            continue
        same = list(iter_cards(hand & RANK_MASK[rank]))
        out.extend((1 << a) | (1 << b) for a, b in combinations(same, 2))
    return out


def test_pairs_are_every_two_cards_of_a_rank_rank_by_rank() -> None:
    rng = random.Random(5)
    found = 0
    for _ in range(20000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 14)))
        listed = pairs(hand)
        assert listed == _pairs_rank_by_rank(hand), hand
        found += len(listed)
    assert found > 10000
    assert pairs(RANK_MASK[JACK]) == []  # jacks make no pair
    assert len(pairs(RANK_MASK[5])) == 6
