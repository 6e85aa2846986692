"""The terminal game typed at in another encoding than its locale's: a terminal set to
Windows-1251 or Latin-1 under a UTF-8 locale sends bytes that are not UTF-8, and Python reads
a terminal's input strictly under a UTF-8 locale (PYTHONIOENCODING=utf-8:strict here, as
ru_RU.UTF-8 gives it)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from umtali import cli

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


def _interruptible() -> None:
    """In the child, before it runs: SIGINT as a terminal leaves it (Python then turns it
    into KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_verify_interrupted_is_not_a_fair_verdict(tmp_path: Path) -> None:
    # Exit status 0 is FAIR (``verify FILE && ...``): Ctrl-C before a verdict is none. The file
    # is a pipe nobody writes, so that verify waits in its open() for the interrupt.
    pipe = tmp_path / "umtali-42-deals.json"
    os.mkfifo(pipe)
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    # Ctrl-C as a terminal sends it: started from a shell's background job (``make test &``),
    # the tests inherit SIGINT ignored, and so would verify, waiting on the pipe for ever.
    with subprocess.Popen([sys.executable, "-m", "umtali", "verify", str(pipe)], cwd=ROOT,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          preexec_fn=_interruptible) as check:
        wchan = Path(f"/proc/{check.pid}/wchan")
        deadline = time.monotonic() + 60
        while wchan.read_text() != "wait_for_partner" and time.monotonic() < deadline:
            time.sleep(0.05)
        check.send_signal(signal.SIGINT)
        try:
            out, errors = check.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            check.kill()  # else leaving the ``with`` waits for it for good
            raise
    assert "Traceback" not in errors.decode()
    assert check.returncode == 128 + signal.SIGINT
    assert b"FAIR" not in out


@pytest.mark.parametrize("hands", ["0", "-5"])
def test_simulate_asks_for_at_least_one_hand(hands: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["simulate", "--hands", hands], io.StringIO(), io.StringIO())
    assert stopped.value.code == 2
    assert "--hands" in capsys.readouterr().err


def test_a_terminal_without_the_suit_symbols_shows_cards_as_they_are_typed() -> None:
    # A Windows-1251 or KOI8-R terminal has no ♠ ♥ ♦ ♣: "2\u2660" is no card a player can read;
    # "2S" is the card as the notation types it.
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONIOENCODING"] = "cp1251"
    done = subprocess.run([sys.executable, "-m", "umtali", "play", "--seed", "3", "--lang", "ru",
                           "--no-review"], cwd=ROOT, env=env, input=b"quit\n",
                          capture_output=True, timeout=120, check=False)
    out = done.stdout.decode("cp1251")
    assert done.returncode == 0 and "Traceback" not in done.stderr.decode("cp1251", "replace")
    hand = next(line for line in out.splitlines() if line.startswith("Ваши карты: "))
    assert hand == "Ваши карты: 2S 5S 9S AH 5H 6H 10D QD 8C JC", hand
    assert "\\u" not in out, out


def test_a_replays_bad_line_cannot_redraw_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    # ``script`` replays a file of moves someone else may have written: its error quotes the
    # line, as verify quotes a file, without the escape sequences that would clear the screen.
    typed = "meld 8S 8H 8D\n\x1b[2J\x1b[H\x1b[32mFAIR\u202e\n"
    assert cli.main(["script", "--seed", "3"], io.StringIO(typed), io.StringIO()) == 1
    errors = capsys.readouterr().err
    assert errors.startswith("line 2: ")
    assert "\x1b" not in errors and "\u202e" not in errors, repr(errors)


def test_a_replays_huge_line_is_not_echoed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    typed = "x" * 100_000 + "\n"
    assert cli.main(["script", "--seed", "3"], io.StringIO(typed), io.StringIO()) == 1
    errors = capsys.readouterr().err
    assert errors.startswith("line 1: ") and len(errors) < 1000, len(errors)
