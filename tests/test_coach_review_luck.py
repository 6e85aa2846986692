"""A review never reports as a mistake a move no worse than the computer's: the playouts that
judge two moves are luck-bound (a few dozen sampled worlds), and a gain within that luck is not
a cost the player paid."""

from __future__ import annotations

import pytest

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.coach import review
from umtali.view import PlayerView


def _view(hand: str) -> PlayerView:
    session = Session(RuleSet.english(), 0)
    # Nothing the player sees tells clubs from diamonds: the hand, the pile and the table hold
    # neither, so the club and the diamond of a rank are the same card to play.
    session.hand = position(hands=(hand, "3S 5S 9H 10H JH 6S 4S"),
                            stock="AS 2S 6H 9S 10S JS QS KS AH 2H 3H 8S 8H 10C",
                            discard="5H", turn=0)
    return session.view(0)


@pytest.mark.parametrize("seed", range(10))
def test_the_twin_of_the_card_discarded_is_no_better_move(seed: int) -> None:
    view = _view("3C 3D 8C 8D")
    found = review([(view, Move.parse("discard 3C"))], f"s{seed}")
    assert not [m for m in found if m.better == Move.parse("discard 3D")], found


def test_a_clear_cost_is_still_reported() -> None:
    # The opponent went out: the ten kept rather than the two scores four more for them, in
    # every world alike.
    session = Session(RuleSet.english(), 0)
    session.hand = position(hands=("10H 9H 2C 4D", ""),
                            stock="AS 2S 3S", turn=0, out=1, discard="AD")
    view = session.view(0)
    [found] = review([(view, Move.parse("discard 2C"))], budget=200)
    assert found.better == Move.parse("discard 10H") and found.cost == 4.0
