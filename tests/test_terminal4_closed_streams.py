"""``python -m umtali`` with standard input or output closed (``<&-``, ``>&-``) or unwritable
(``> /dev/full``): one line on stderr, no traceback, and status 2, verify's "no verdict",
never its "mismatch" 1 nor a game's 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import _replay_file

ROOT = Path(__file__).resolve().parent.parent
FULL = Path("/dev/full")


def _shell(words: str, tmp_path: Path, lang: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m umtali`` run by a shell, its redirections in ``words``."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["REPLAY"] = str(tmp_path / "replay.json")
    return subprocess.run(["sh", "-c", f'"{sys.executable}" -m umtali {lang} {words}'],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    [line] = done.stderr.splitlines()
    return line


@pytest.mark.parametrize("command", ["play --seed 3 --no-review", "script"])
def test_a_closed_stdin(tmp_path: Path, command: str) -> None:
    line = _one_line(_shell(f"{command} <&-", tmp_path))
    assert "standard input is closed" in line


@pytest.mark.parametrize("command", ["play --seed 3 --no-review </dev/null", "verify \"$REPLAY\""])
def test_a_closed_stdout(tmp_path: Path, command: str) -> None:
    _replay_file(tmp_path)
    line = _one_line(_shell(f"{command} >&-", tmp_path))
    assert "standard output is closed" in line


def test_verify_needs_no_stdin(tmp_path: Path) -> None:
    _replay_file(tmp_path)
    done = _shell('verify "$REPLAY" <&-', tmp_path)
    assert done.returncode == 0, done.stderr
    assert "FAIR" in done.stdout


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
@pytest.mark.parametrize("command", ["play --seed 3 --no-review </dev/null", "verify \"$REPLAY\""])
def test_a_full_device(tmp_path: Path, command: str) -> None:
    _replay_file(tmp_path)
    line = _one_line(_shell(f"{command} >/dev/full", tmp_path))
    assert "cannot write to standard output" in line
    assert os.strerror(28) in line  # ENOSPC, as the system says it


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
def test_a_full_device_in_russian(tmp_path: Path) -> None:
    _replay_file(tmp_path)
    line = _one_line(_shell('verify "$REPLAY" >/dev/full', tmp_path, lang="--lang ru"))
    assert "стандартный вывод" in line
