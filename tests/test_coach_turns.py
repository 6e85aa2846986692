"""The turn a review names: the seat's own turns of the hand, counted as the table counts them,
including turns with no draw (the first of the player dealt eleven cards, a last turn played
with the stock empty)."""

from __future__ import annotations

import pytest

from cogs.umtali.coach import review_text
from cogs.umtali.coach_work import Lesson, seat_record
from umtali import RuleSet, Session
from umtali.ai.review_words import turn_of
from umtali.i18n import EN, Text
from umtali.players import GreedyPlayer


def _hand(rules: RuleSet, seed: int) -> tuple[Session, list[tuple[int, int]]]:
    """A hand played out by greedy players, with each move's seat and that seat's turn as the
    engine counts turns (both seats' turns done before it, halved)."""
    session = Session(rules, seed)
    turns: list[tuple[int, int]] = []
    while not session.hand_log:
        seat = session.to_act
        turns.append((seat, session.hand.turns // 2 + 1))
        session.apply(GreedyPlayer().choose(session.view(seat)), seat)
    return session, turns


@pytest.mark.parametrize("rules", [RuleSet.english(), RuleSet.russian()],
                         ids=["english", "russian"])
@pytest.mark.parametrize("seed", range(6))
def test_each_decision_is_named_by_the_seats_own_turn(rules: RuleSet, seed: int) -> None:
    session, turns = _hand(rules, seed)
    for seat in (0, 1):
        record = seat_record(session, seat, (1, 1))
        expected = [turn for mover, turn in turns if mover == seat]
        assert [turn_of(record, at) for at in range(len(record))] == expected


def test_the_player_dealt_eleven_cards_has_a_second_turn() -> None:
    session, _ = _hand(RuleSet.english(), 3)
    starter = 1 - session.first_dealer
    record = seat_record(session, starter, (1, 1))
    assert record[0][0].phase != "draw"  # eleven cards: the first turn has no draw
    second = next(at for at, (view, _) in enumerate(record) if view.phase == "draw")
    lesson = Lesson(turn_of(record, second), record[second][0], record[second][1],
                    record[second][1], 1.0, Text.of("it is the only move"))
    assert "On your 2nd turn:" in review_text(EN, (1, 1), [lesson])
