"""The terminal game typed at in another encoding than its locale's: a terminal set to
Windows-1251 or Latin-1 under a UTF-8 locale sends bytes that are not UTF-8, and Python reads
a terminal's input strictly under a UTF-8 locale (PYTHONIOENCODING=utf-8:strict here, as
ru_RU.UTF-8 gives it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*words: str, typed: bytes) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONIOENCODING"] = "utf-8:strict"
    return subprocess.run([sys.executable, "-m", "umtali", *words], cwd=ROOT, env=env,
                          input=typed, capture_output=True, timeout=120, check=False)


def test_a_line_not_in_the_terminals_encoding_is_no_move_and_play_goes_on() -> None:
    # "взять" typed in Windows-1251, then the first move of the list, then quit.
    done = _run("play", "--seed", "3", "--no-review",
                typed="взять".encode("cp1251") + b"\n1\nquit\n")
    out, errors = done.stdout.decode(), done.stderr.decode()
    assert "Traceback" not in errors and done.returncode == 0
    assert "is not a move" in out
    assert "Player draws from the stock" in out and out.rstrip().endswith("Bye.")


def test_a_script_not_in_utf8_stops_at_its_line() -> None:
    done = _run("script", "--seed", "3", typed=b"meld 8S 8H 8D\n\xe9\n")
    errors = done.stderr.decode()
    assert "Traceback" not in errors
    assert done.returncode == 1 and errors.startswith("line 2: ")
