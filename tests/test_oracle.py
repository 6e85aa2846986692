"""The engine's fast move listing equals a literal reading of the rules, position by position."""

from __future__ import annotations

import random

import pytest

from tests import oracle
from umtali import RuleSet, Session


@pytest.mark.parametrize(
    "rules", [RuleSet.english(), RuleSet.russian(), RuleSet.english(optional_melding=True)],
    ids=["english", "russian", "optional"],
)
def test_legal_moves_match_the_rule_book(rules: RuleSet) -> None:
    checked = 0
    for seed in range(4):
        session = Session(rules, seed)
        rng = random.Random(seed)
        while not session.over and checked < 800 * (seed + 1):
            state = session.hand
            if state.hands[state.turn].bit_count() <= 13:
                expected = oracle.describe(oracle.legal_moves(state))
                assert sorted(str(m) for m in state.legal_moves()) == expected
                checked += 1
            session.apply(rng.choice(session.legal_moves()))
    assert checked > 2000
