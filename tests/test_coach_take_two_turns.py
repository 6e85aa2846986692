"""The coach's point counts of a turn after ``take 2``: only the melds that leave both taken
cards meldable are followed, as the engine lists them."""

from __future__ import annotations

import pytest

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.reasons import reason
from umtali.hand import Phase
from umtali.i18n import EN


@pytest.mark.parametrize("optional", [False, True])
def test_a_turn_after_take_two_counts_only_legal_melds(optional: bool) -> None:
    # Taking 9H 10H, 8H 9H 10H must be laid: 10S 10H 10D (15 points against 7) would leave 9H
    # unmeldable, so the turn lays 15 for the kings and 7 for the run, 22, never 30.
    rules = RuleSet.english(optional_melding=optional)
    h = position(hands=("8H 10S 10D KS KD KC 9C 2D", "3C 7S 9D"), stock="AS 4D 8C 10C",
                 discard="AC 9H 10H", turn=0, phase=Phase.DRAW, rules=rules)
    session = Session(rules, 0)
    session.hand = h
    session.apply(Move.parse("take 2"))
    view = session.view(0)
    assert set(view.legal_moves) == {Move.parse("meld 8H 9H 10H"), Move.parse("meld KS KD KC")}
    kings = EN(reason(view, Move.parse("meld KS KD KC")))
    run = EN(reason(view, Move.parse("meld 8H 9H 10H")))
    if optional:
        assert kings == "of the melds on offer, a turn starting with K♠ K♦ K♣ lays the most: " \
            "22 points"
        assert run == "of the melds on offer, a turn starting with 8♥ 9♥ 10♥ lays the most: " \
            "22 points"
    else:
        # Each line names its own meld (a hint names one), the turn's total after it.
        for cards, why in (("K♠ K♦ K♣", kings), ("8♥ 9♥ 10♥", run)):
            assert why == f"{cards} shares no card with your other melds: all of them go down " \
                "this turn, in any order, 22 points in all"
