"""The terminal game on a narrow terminal: its lines are wrapped to the terminal's width, only
at spaces (never inside a card name, nor inside a move of the list), and nothing is lost; to a
pipe or a file the lines stay whole, as scripts and tests read them.

The game runs in a pseudo-terminal of 40 columns (its window size set as a terminal sets it),
so the width is the one ``shutil.get_terminal_size`` finds there."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 40
GAME = ["play", "--seed", "5", "--level", "easy", "--no-review"]
TYPED = "help\ndraw\nmeld A♣ 2♣ 3♣\n10С\nquit\n"
CARD = re.compile(r"(?<![\w])(?:10|[2-9AJQK])[♠♥♦♣]")


def _env() -> dict[str, str]:
    # No COLUMNS: the width must come from the terminal itself.
    return {k: v for k, v in os.environ.items()
            if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "COLUMNS", "LINES")}


def on_terminal(argv: list[str], typed: str, tmp_path: Path, width: int = WIDTH) -> str:
    """What ``python -m umtali`` writes to a terminal ``width`` columns wide."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
    with (tmp_path / "stderr.txt").open("w+b") as errors:
        game = subprocess.Popen([sys.executable, "-m", "umtali", *argv], cwd=ROOT, env=_env(),
                                stdin=subprocess.PIPE, stdout=slave, stderr=errors)
        os.close(slave)
        assert game.stdin is not None
        game.stdin.write(typed.encode())
        game.stdin.close()
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the game closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        assert game.wait(timeout=120) == 0, b"".join(chunks)
        errors.seek(0)
        assert errors.read() == b""
    return b"".join(chunks).decode().replace("\r\n", "\n")


def to_pipe(argv: list[str], typed: str) -> str:
    done = subprocess.run([sys.executable, "-m", "umtali", *argv], cwd=ROOT, env=_env(),
                          input=typed, capture_output=True, text=True, encoding="utf-8",
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def columns(line: str) -> int:
    return len(line)  # the game's signs (♠ ♥ ♦ ♣ …) are one column each


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    tmp_path = tmp_path_factory.mktemp("wrap")
    return on_terminal(GAME, TYPED, tmp_path), to_pipe(GAME, TYPED)


def test_no_line_is_wider_than_the_terminal(both: tuple[str, str]) -> None:
    wrapped, whole = both
    assert max(map(columns, whole.splitlines())) > WIDTH  # else the test shows nothing
    too_wide = [line for line in wrapped.splitlines() if columns(line) > WIDTH]
    assert not too_wide, too_wide


def test_wrapping_loses_and_breaks_nothing(both: tuple[str, str]) -> None:
    wrapped, whole = both
    # The same words in the same order: a card broken across lines ("1" "0♠") would differ.
    assert wrapped.split() == whole.split()
    assert CARD.findall(wrapped) == CARD.findall(whole)


def test_a_move_of_the_list_is_never_split(both: tuple[str, str]) -> None:
    wrapped, whole = both
    moves = [m for line in whole.splitlines() if line.startswith("Moves: ")
             for m in re.split(r", (?=\d+\) )", line.removeprefix("Moves: "))]
    assert any(" " in m for m in moves)  # moves of several words, like "1) meld A♣ 2♣ 3♣"
    lines = wrapped.splitlines()
    for move in moves:
        assert any(move in line for line in lines), move


def test_the_help_keeps_its_columns(both: tuple[str, str]) -> None:
    wrapped, _ = both
    lines = wrapped.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  meld 8D 9D 10D"))
    # Its words wrap under its own column (the descriptions start at column 21).
    assert lines[start:start + 2] == ["  meld 8D 9D 10D     lay a new meld:",
                                      " " * 21 + "sequence, group,"]


def test_a_wide_terminal_is_not_wrapped(tmp_path: Path) -> None:
    wide = on_terminal(GAME, TYPED, tmp_path, width=500)
    assert wide.split("\n") == to_pipe(GAME, TYPED).split("\n")


def test_the_verdict_of_verify_is_wrapped_too(tmp_path: Path) -> None:
    from tests.test_fairness import replay_data

    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps(replay_data()[1]), encoding="utf-8")
    argv = ["verify", str(replay)]
    wrapped, whole = on_terminal(argv, "", tmp_path), to_pipe(argv, "")
    assert max(map(columns, whole.splitlines())) > WIDTH
    assert wrapped.split() == whole.split()
    # A word wider than a row (the commitment's 64 digits) is left whole, alone on its row.
    too_wide = [line for line in wrapped.splitlines()
                if columns(line) > WIDTH and len(line.split()) > 1]
    assert not too_wide, too_wide
