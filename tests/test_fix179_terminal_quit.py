"""'quit' where a hot-seat player is asked to press Enter, or where a name is asked, asks
before it stops the game, as at a move (review165): at the handover it ended the game unasked,
and as a name it was kept ("quit melds 7♠ 7♥ 7♣")."""

from __future__ import annotations

import io

from tests.test_fix177_terminal_turn import Keyboard
from umtali.cli import main

STOP = "Stop the game here? Type 'yes' to stop, anything else to play on:"
HANDOVER = "Ann to play: the other player looks away, and Ann presses Enter."


def _play(stdin: io.StringIO, *extra: str) -> str:
    out = io.StringIO()
    assert main(["play", "--seed", "7", "--no-review", *extra], stdin, out) == 0
    return out.getvalue()


def test_quit_at_the_handover_asks_first() -> None:
    hotseat = ("--hotseat", "--handover", "--name", "Ann")
    out = _play(io.StringIO("quit\nno\n\n"), *hotseat)
    assert out.count(STOP) == 1, out
    # Played on: the hand-over is asked again, then Ann's hand is shown.
    assert out.count(HANDOVER) == 2, out
    assert "Play goes on." in out and "Ann> " in out, out
    stopped = _play(io.StringIO("quit\nyes\n\n1\n"), *hotseat)
    assert stopped.endswith(f"{STOP} Bye.\n"), stopped
    assert "Your hand:" not in stopped and "Ann> " not in stopped
    russian = _play(io.StringIO("выход\nда\n"), *hotseat, "--lang", "ru")
    assert "Закончить игру? Введите 'да'" in russian and russian.endswith("До встречи.\n")


def test_a_quit_word_is_no_name() -> None:
    out = _play(Keyboard("quit\nno\nАня\nmeld 7s 7h 7c\n"))
    assert out.count("Your name (Enter for 'Player'):") == 2, out
    assert "Аня melds 7♠ 7♥ 7♣" in out and "quit melds" not in out.lower(), out
    stopped = _play(Keyboard("выход\nyes\nmeld 7s 7h 7c\n"))
    assert stopped.endswith(f"{STOP} Bye.\n"), stopped
    assert "melds" not in stopped
    # Two at one keyboard: the second seat's quit too.
    two = _play(Keyboard("Аня\nexit\nyes\n"), "--hotseat", "--no-handover")
    assert two.count("Name of the player in seat 2") == 1 and two.endswith("Bye.\n"), two
    assert "Аня> " not in two
