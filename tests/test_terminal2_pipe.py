"""``python -m umtali`` whose reader goes away (``... | head -1``): it stops without a
traceback, with the status a shell gives a program ended by SIGPIPE."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_closed_pipe_stops_the_game_without_a_traceback(tmp_path: Path) -> None:
    typed = tmp_path / "typed.txt"
    typed.write_text("1\n" * 5000, encoding="utf-8")  # a whole session: far past a pipe's buffer
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    with typed.open(encoding="utf-8") as stdin, subprocess.Popen(
            [sys.executable, "-m", "umtali", "play", "--seed", "3", "--level", "easy",
             "--no-review"], cwd=ROOT, env=env, stdin=stdin, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE) as game:
        assert game.stdout is not None and game.stderr is not None
        assert game.stdout.readline().startswith(b"Umtali, seed 3.")
        game.stdout.close()  # as head -1 does
        errors = game.stderr.read().decode()
        assert game.wait(timeout=120) == 141
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
