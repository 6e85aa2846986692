"""The meld phase's listing read from tables (``_free_meld_moves``) lists what the general
listing does, in its order, for every hand a position could hold."""

from __future__ import annotations

import random

import pytest

from umtali import RuleSet, Session
from umtali.listing import _free_meld_moves, _meld_moves, table_easy
from umtali.moves import MoveKind


@pytest.mark.parametrize("variant", ["english", "russian"])
@pytest.mark.parametrize("optional", [False, True])
def test_the_listing_from_tables_is_the_general_one(variant: str, optional: bool) -> None:
    rules = RuleSet.named(variant, optional_melding=optional)
    rng = random.Random(3)
    keen = (MoveKind.MELD, MoveKind.EXTEND, MoveKind.TAKE_TWO)
    kinds: set[MoveKind] = set()
    checked = 0
    for seed in range(10):
        session = Session(rules, f"free-{seed}")
        while not session.over:
            h = session.hand
            easy = table_easy(h)
            # The hand to act, and hands of other cards not on the table against the same table.
            hands = [h.hands[h.turn]]
            free = h.hands[0] | h.hands[1] | sum(1 << c for c in (*h.stock, *h.discard_pile))
            pool = [c for c in range(52) if free >> c & 1]
            for _ in range(3):
                size = min(len(pool), rng.randint(4, 14))
                hands.append(sum(1 << c for c in rng.sample(pool, size)))
            for hand in hands:
                listed = _free_meld_moves(h, hand, easy)
                assert listed == _meld_moves(h, hand, easy, 0), (session.moves, hand)
                kinds.update(m.kind for m in listed)
                checked += 1
            legal = session.legal_moves()
            melds = [m for m in legal if m.kind in keen]
            session.apply(rng.choice(melds or legal))
    assert checked > 1000
    assert {MoveKind.MELD, MoveKind.EXTEND, MoveKind.DISCARD} <= kinds
