"""The coach in the terminal: ``hint`` and the review after each hand against the computer."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from tests.test_cli import run
from umtali.ai import LEVELS
from umtali.ai.coach import hint
from umtali.ai.hard import HardPlayer
from umtali.ai.resume import player_seed
from umtali.cli_coach import review_lines
from umtali.i18n import EN, Tr, sentence, tr_for
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import PlayerView


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _first_turn(seed: int) -> tuple[Session, PlayerView]:
    """The session as the terminal's player first sees it: the computer's turns played."""
    session = Session(RuleSet.english(), seed)
    computer = LEVELS["normal"](seed)
    while session.to_act == 1:
        session.apply(computer.choose(session.view(1)))
    return session, session.view(0)


def test_hint_prints_hards_move_and_why() -> None:
    code, out = run(["play", "--seed", "9"], "hint\nquit\n")
    assert code == 0
    found = re.search(r"Hint: (.+) \(the hard computer's move\)\. (.+)\n", out)
    assert found is not None, out
    session, view = _first_turn(9)
    move = Move.parse(found.group(1))
    assert move in view.legal_moves
    expected = hint(view, HardPlayer(player_seed(session, 0)))
    assert move == expected.move and found.group(2) == sentence(EN(expected.reason))
    # A hint plays nothing: the same turn's prompt comes again.
    assert out.count("Player> ") == 2


def test_hint_in_russian_and_in_the_help() -> None:
    code, out = run(["play", "--seed", "9", "--lang", "ru"], "help\nhint\nquit\n")
    assert code == 0
    session, view = _first_turn(9)
    expected = hint(view, HardPlayer(player_seed(session, 0)))
    assert sentence(tr_for("ru")(expected.reason)) in out
    assert "Подсказка:" in out and "'hint'" in out
    code, out = run(["play", "--seed", "9"], "help\nquit\n")
    assert "Type 'hint' for the move the hard computer would make" in out


def _moves_to_end_hand_one(seed: int) -> int:
    """How many moves the terminal's player makes in hand 1, always choosing move 1."""
    session = Session(RuleSet.english(), seed)
    computer = LEVELS["normal"](seed)
    mine = 0
    while not session.hand_log:
        view = session.view(session.to_act)
        if view.seat == 1:
            session.apply(computer.choose(view))
        else:
            session.apply(view.legal_moves[0])
            mine += 1
    return mine


def test_after_a_hand_against_the_computer_the_coach_reviews_it() -> None:
    moves = "1\n" * _moves_to_end_hand_one(9)
    code, out = run(["play", "--seed", "9", "--review"], moves + "quit\n")
    assert code == 0
    assert "The coach reviews the hand…" in out
    review = out[out.index("Review of hand 1 (game 1)"):].splitlines()
    assert "the moves that cost you most" in review[0]
    lines = [line for line in review[1:4] if line.startswith("  On your ")]
    assert 1 <= len(lines) <= 3
    for line in lines:
        # (The costliest's turn marked; a cost too unsure for a narrow range said in a word.)
        found = re.match(r"  On your (\d+)(st|nd|rd|th) turn(?: \(your costliest turn\))?: "
                         r"you chose to (.+); the computer would (.+) \((?:about (\d+)(?: to "
                         r"(\d+))? points?|about a point|a few points|several points|many points)"
                         r" better\)\. .+", line)
        assert found is not None, line
        assert found.group(3) != found.group(4)
        assert found.group(5) is None or int(found.group(5)) >= 1
        assert found.group(6) is None or int(found.group(6)) > int(found.group(5))
    # Only once asked (or at a terminal): a script of moves is not held up by reviews.
    code, quiet = run(["play", "--seed", "9"], moves + "quit\n")
    assert "Review of hand" not in quiet and "The coach reviews" not in quiet


def test_the_review_of_a_hand_comes_before_the_next_hand_begins() -> None:
    # The review is of the hand just ended: read after "Game 1, hand 2: ... deals." it would
    # seem to be of the hand announced.
    moves = "1\n" * _moves_to_end_hand_one(9)
    code, out = run(["play", "--seed", "9", "--review"], moves + "quit\n")
    assert code == 0
    assert "Game 1, hand 2:" in out, out
    assert out.index("Hand 1 over") < out.index("The coach reviews the hand…") \
        < out.index("Review of hand 1 (game 1)") < out.index("Game 1, hand 2:")


def test_the_last_hands_review_comes_before_the_session_is_won(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # "Computer wins the session 2-0." is the last word: the review of the hand that decided it
    # comes before it, and before its game's result, right after the hand's own.
    # Where each review comes is asked, not how deep it looks: a whole session's reviews at
    # the terminal's budget took 8 s; the same reviews, each of a smaller search.
    def quick(record: Sequence[tuple[PlayerView, Move]], game: int, hand: int, seed: str,
              tr: Tr, budget: int = 0, dealt: PlayerView | None = None) -> list[str]:
        return review_lines(record, game, hand, seed, tr, 200, dealt)

    monkeypatch.setattr("umtali.cli_play.review_lines", quick)
    code, out = run(["play", "--seed", "9", "--level", "easy", "--review"], "1\n" * 5000)
    assert code == 0
    last = out.rindex("Hand 4 over")
    review = out.index("Review of hand 4 (game 3)", last)
    assert last < out.index("The coach reviews the hand…", last) < review
    assert review < out.index("Game 3 to ") < out.index("wins the session")
    assert out.rstrip().endswith("wins the session 2-1.")
