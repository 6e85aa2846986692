""".env as an editor may have saved it: UTF-16 (Windows PowerShell 5's "echo X=1 > .env") is
read; a stray byte that is not UTF-8 (Latin-1's é) stops the bot and its tools in one sentence,
status 2 as for a bad setting; a line python-dotenv cannot read is warned of once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from data import backup, copy_to_postgres

BOT_PY = Path(__file__).resolve().parent.parent / "bot.py"
LATIN_1 = "DISCORD_TOKEN=tok\nUMTALI_LOG_LEVEL=INFO # café\n".encode("latin-1")


def _run_bot(cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")}
    return subprocess.run([sys.executable, str(BOT_PY)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60, check=False)


def test_a_latin_1_byte_stops_the_bot_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(LATIN_1)
    result = _run_bot(tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert f"{tmp_path / '.env'} is not UTF-8 text" in line
    assert "save it as UTF-8" in line


def test_a_utf_16_dotenv_is_read(tmp_path: Path) -> None:
    # The bad log level can only come from the file: its error proves the file was read.
    (tmp_path / ".env").write_text("DISCORD_TOKEN=tok\nUMTALI_LOG_LEVEL=LOUD\n",
                                   encoding="utf-16")
    result = _run_bot(tmp_path)
    assert result.returncode == 2, result.stderr
    assert "UMTALI_LOG_LEVEL" in result.stderr and "'LOUD'" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_line_dotenv_cannot_read_is_warned_of_once(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=tok\nnot a setting\nUMTALI_LOG_LEVEL=LOUD\n")
    result = _run_bot(tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("could not parse statement starting at line 2") == 1


def test_backup_with_a_latin_1_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_bytes(LATIN_1)
    assert backup.main([]) == 2
    err = capsys.readouterr().err
    assert "is not UTF-8 text" in err and "Traceback" not in err
    assert not (tmp_path / "data").exists()


def test_copy_to_postgres_with_a_latin_1_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_bytes(LATIN_1)
    assert copy_to_postgres.main(["postgresql://u@127.0.0.1:9/nowhere"]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("UMTALI_DB_PATH=x.sqlite3\n")
    (tmp_path / ".env").chmod(0)
    assert backup.main([]) == 2
    assert "could not read" in capsys.readouterr().err
