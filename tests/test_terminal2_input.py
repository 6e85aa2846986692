"""The terminal game against hostile input: odd digits, huge lines, and the commands its help
names; and its computer, which must not be handed the session's seed."""

from __future__ import annotations

import io

import pytest

import umtali.cli
from umtali.ai.resume import player_seed
from umtali.cli import main
from umtali.players import Player, RandomPlayer
from umtali.rules import RuleSet
from umtali.session import Session


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def play(typed: str, *options: str) -> str:
    out = io.StringIO()
    code = main(["play", "--seed", "5", "--level", "easy", "--no-review", *options],
                io.StringIO(typed), out)
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize("typed", ["²", "①", "٣"])
def test_a_digit_that_is_not_ascii_is_not_a_move_number(typed: str) -> None:
    # ``str.isdigit`` holds for them; ``int("²")`` raised ValueError out of the game.
    out = play(f"{typed}\nquit\n")
    assert f"'{typed}' is not a move" in out
    assert out.endswith("Bye.\n")


def test_moves_lists_the_moves_again() -> None:
    out = play("moves\nquit\n")
    prompt = out.index("Player> ")
    assert out[prompt:].startswith("Player> Moves: 1) ")
    assert out.count("Moves: ") == 2


def test_table_shows_the_table_and_the_moves() -> None:
    out = play("table\nquit\n")
    assert out.count("Your hand:") == 2 and out.count("Moves: ") == 2


@pytest.mark.parametrize("line", ["x" * 100_000, "draw" + " " * 5000 + "x", "1" * 5000])
def test_a_huge_line_is_refused_without_being_echoed(line: str) -> None:
    out = play(f"{line}\nquit\n")
    assert "That line is too long to be a move" in out
    assert len(out) < 3000, "the line is not echoed back whole"
    assert "draws from the stock" not in out.split("Player> ", 1)[1]
    assert out.endswith("Bye.\n")


def test_a_huge_line_without_an_end_is_refused_then_input_ends() -> None:
    out = play("y" * 10_000)
    assert "That line is too long" in out and out.endswith("Bye.\n")


def test_a_huge_line_in_russian() -> None:
    out = play("z" * 1000 + "\nquit\n", "--lang", "ru")
    assert "Строка слишком длинная для хода" in out


def test_the_computer_is_not_given_the_sessions_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's seed tells every deal: the computer gets a one-way seed of its own, as on
    Discord (``player_seed``), so that it cannot know the cards it does not see."""
    given: list[int | str] = []

    def level(seed: int | str) -> Player:
        given.append(seed)
        return RandomPlayer(seed)

    monkeypatch.setitem(umtali.cli.LEVELS, "easy", level)
    play("quit\n")
    assert given == [player_seed(Session(RuleSet.named("english"), 5), 1)]
