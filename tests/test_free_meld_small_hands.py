"""The meld phase's listing from tables (``_free_meld_moves``) for hands of three cards or fewer,
which may lay a pair as the last meld: the same moves, in the same order, as the general
listing (``_meld_moves``), under either rule on melding."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from umtali import RuleSet, Session
from umtali.listing import _free_meld_moves, _meld_moves, table_easy
from umtali.moves import MoveKind


@pytest.mark.parametrize("variant", ["english", "russian"])
@pytest.mark.parametrize("optional", [False, True])
def test_small_hands_list_as_the_general_listing(variant: str, optional: bool) -> None:
    rules = RuleSet.named(variant, optional_melding=optional)
    rng = random.Random(17)
    keen = (MoveKind.MELD, MoveKind.EXTEND, MoveKind.TAKE_TWO)
    kinds: set[MoveKind] = set()
    checked = pairs = 0
    for seed in range(3):
        session = Session(rules, f"small-{seed}")
        tables = 0
        while not session.over and tables < 4:
            h = session.hand
            if len(h.melds) >= 2 + tables:  # a few tables, more melds on each
                tables += 1
                easy = table_easy(h)
                on_table = 0
                for m in h.melds:
                    on_table |= m.cards
                free = [c for c in range(52) if not on_table >> c & 1]
                hands = [1 << c for c in free]
                hands += [1 << x | 1 << y for x, y in combinations(free, 2)]
                threes = list(combinations(free, 3))
                hands += [1 << x | 1 << y | 1 << z for x, y, z in rng.sample(threes, 3000)]
                for hand in hands:
                    listed = _free_meld_moves(h, hand, easy)
                    assert listed == _meld_moves(h, hand, easy, 0), (session.moves, hand)
                    kinds.update(m.kind for m in listed)
                    pairs += any(m.kind is MoveKind.MELD and m.cards.bit_count() == 2
                                 and m.cards & (m.cards >> 13 | m.cards >> 26 | m.cards >> 39)
                                 for m in listed)
                    checked += 1
            legal = session.legal_moves()
            melds = [m for m in legal if m.kind in keen]
            session.apply(rng.choice(melds or legal))
    assert checked > 20000 and pairs > 1000
    assert {MoveKind.MELD, MoveKind.EXTEND, MoveKind.DISCARD} <= kinds
