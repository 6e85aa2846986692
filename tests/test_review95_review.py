"""review95: the review after a hand, as a player reads it: the turn as they count their own
("on your 7th turn"), one line a turn, whole points, each move in words on both sides (the
face of a last card too), in Russian without the terminal's commands, the computer named once."""

from __future__ import annotations

import re

import pytest

from cogs.umtali.coach import review_text
from cogs.umtali.coach_work import Lesson
from tests.helpers import position
from tests.test_cli import run
from tests.test_cli_coach import _moves_to_end_hand_one
from umtali import Move, RuleSet, Session
from umtali.cli_coach import review_lines
from umtali.hand import Phase
from umtali.i18n import EN, Text, tr_for
from umtali.view import PlayerView


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _last_card() -> PlayerView:
    """The player goes out with K♥, which the opponent could marry with a Q♥ unseen: face up
    it may be taken, face down it may not."""
    session = Session(RuleSet.english(), 0)
    session.hand = position(hands=("KH", "3C 8S 9H 4D 5D"), table=("0: 5S 6S 7S",),
                            stock="AS 4H 6H 9C 2D", discard="2H 3H", turn=0)
    return session.view(0)


def _face_up_review(lang: str) -> list[str]:
    view = _last_card()
    assert Move.parse("discard KH down") in view.legal_moves
    return review_lines([(view, Move.parse("discard KH"))], 1, 1, "r95", tr_for(lang),
                        budget=200)


def test_the_terminal_review_says_the_face_of_a_last_card_on_both_sides() -> None:
    """It read "you played discard K♥ up; the hard computer would play discard K♥ (about 7.0
    points better)": the terminal's typing default (face down) on one side only."""
    lines = _face_up_review("en")
    assert len(lines) == 2, lines
    found = re.fullmatch(r"  On your 1st turn: you chose to discard K♥ face up; the computer "
                         r"would discard K♥ face down "
                         r"\(about (\d+)(?: to \d+)? points? better\)\. .+",
                         lines[1])
    assert found is not None, lines[1]


def test_the_russian_terminal_review_has_no_english_commands() -> None:
    """"Ход 1: вы сыграли discard K♥ up; компьютер уровня «сложный» сыграл бы discard K♥":
    commands inside Russian, "ход" for a turn, the level named on every line."""
    lines = _face_up_review("ru")
    line = lines[1]
    assert line.startswith("  На 1-м ходу: вы решили сбросить K♥ в открытую; компьютер "
                           "предпочёл бы сбросить K♥ рубашкой вверх (примерно на "), line
    assert "discard" not in line and "сыграл" not in line, line
    assert re.search(r"примерно на \d+(–\d+)? очк", line), line
    assert "\n".join(lines).count("«сложный»") == 1, lines


def _lesson(turn: int, at: int | None, move: str, cost: float) -> Lesson:
    """A lesson of ``turn`` (``at``: the decision's place in the record, if given)."""
    session = Session(RuleSet.english(), 0)
    session.hand = position(hands=("2H 5S 9C 9D KS", "3C 8S 9H 4D 5D"), stock="AS 4H 6H 2D",
                            discard="2C 3H", turn=0, phase=Phase.DRAW)
    view = session.view(0)
    why = Text.of("it is the only move")
    if at is None:
        return Lesson(turn, view, Move.parse(move), Move.parse("draw"), cost, why)
    return Lesson(turn, view, Move.parse(move), Move.parse("draw"), cost, why, at)


def test_one_turns_decisions_are_one_line_in_the_order_made() -> None:
    """A take and a discard of the same turn read as two "Turn 7:" lines, the discard first
    (costliest first): one line, the take, then the discard. The lines in the order played
    (fix178), the costliest's turn marked."""
    found = [_lesson(7, 15, "discard 9C", 5.0), _lesson(3, 6, "take", 4.2),
             _lesson(7, 14, "take", 3.1)]
    text = review_text(EN, (1, 1), found)
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(bullets) == 2, text
    assert bullets[1].startswith("- On your 7th turn (your costliest turn): you chose to take "
                                 "the top discard; the computer would draw from the stock (about "
                                 "3 points better)."), bullets[1]
    assert " Then you chose to discard 9♣; " in bullets[1], bullets[1]
    assert "(on top of that, about 5 points better)" in bullets[1], bullets[1]
    assert bullets[0].startswith("- On your 3rd turn: "), bullets[0]
    ru = review_text(tr_for("ru"), (1, 1), found)
    assert "На 7-м ходу (ваш самый дорогой ход): вы решили взять верхнюю карту сброса" in ru, \
        ru
    assert ru.count("«сложный»") == 1, ru


@pytest.mark.parametrize(("turn", "nth"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"),
                                           (11, "11th"), (12, "12th"), (13, "13th"),
                                           (21, "21st"), (22, "22nd"), (23, "23rd")])
def test_the_turn_is_the_players_own_count(turn: int, nth: str) -> None:
    text = review_text(EN, (1, 1), [_lesson(turn, None, "take", 17.8)])
    assert f"- On your {nth} turn: " in text, text
    assert "(about 18 points better)" in text, text
    assert f"На {turn}-м ходу: " in review_text(tr_for("ru"), (1, 1), [_lesson(turn, None, "take",
                                                                              17.8)])


def test_the_russian_review_is_announced_once() -> None:
    """"Разбор раздачи…" then "Разбор раздачи 1 (партия 1):"."""
    code, out = run(["play", "--seed", "9", "--lang", "ru", "--review"],
                    "1\n" * _moves_to_end_hand_one(9) + "quit\n")
    assert code == 0
    assert "Разбор раздачи 1 (партия 1)" in out, out[-3000:]
    assert out.count("Разбор раздачи") == 1, out[-3000:]


def test_a_cost_as_uncertain_as_its_playouts_is_told_as_a_range() -> None:
    """"About 17.8 points better", where the same review run again said 9.5 to 13.7: the
    playouts' standard error was some points. A cost is told in whole points, and as the
    range of one standard error either side when that is a point or more, and narrow
    (fix178: wider, a word for its size)."""
    sure = _lesson(2, 0, "take", 4.4)._replace(error=0.3)
    unsure = _lesson(5, 1, "take", 11.4)._replace(error=1.7)
    text = review_text(EN, (1, 1), [unsure, sure])
    assert "On your 5th turn (your costliest turn): you chose to take the top discard; the " \
        "computer would draw from the stock (about 10 to 13 points better)." in text, text
    assert "(about 4 points better)" in text, text
    ru = review_text(tr_for("ru"), (1, 1), [unsure, sure])
    assert "(примерно на 10–13 очков лучше)" in ru and "(примерно на 4 очка лучше)" in ru, ru
