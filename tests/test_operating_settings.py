"""Settings as an admin writes them: every one the bot reads is in .env.example, ``~`` in
UMTALI_DB_PATH is the home directory, and a folder given for the file is one sentence."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from data.location import database_path

ROOT = Path(__file__).resolve().parents[1]
#: Where the bot's settings are read.
READERS = ("settings.py", "scale.py", "data/location.py")


def test_every_setting_the_bot_reads_is_in_env_example() -> None:
    read: set[str] = set()
    for name in READERS:
        text = (ROOT / name).read_text()
        read |= set(re.findall(r'_get\(environ, "([A-Z_]+)"\)', text))
        read |= set(re.findall(r'environ\.get\("([A-Z_]+)"', text))
    assert {"DISCORD_TOKEN", "UMTALI_THINKING_WORKERS", "UMTALI_PROCESS"} <= read
    listed = set(re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert read - listed == set(), "read by the bot but not in .env.example"


def test_a_tilde_in_the_database_path_is_the_home_directory(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert database_path({"UMTALI_DB_PATH": "~/umtali/bot.sqlite3"}) == \
        tmp_path / "umtali" / "bot.sqlite3"
    assert database_path({"UMTALI_DB_PATH": "data/x.sqlite3"}) == Path("data/x.sqlite3")


def _run_bot(cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")}
    env |= {"DISCORD_TOKEN": "tok", "PYTHONPATH": str(ROOT), **settings}
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_tilde_path_makes_no_folder_named_tilde(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    # Stopped right after the database is opened: the proxy's port is closed.
    done = _run_bot(work, HOME=str(home), UMTALI_DB_PATH="~/bot.sqlite3",
                    UMTALI_DISCORD_API="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1, done.stderr
    assert (home / "bot.sqlite3").is_file()
    assert not (work / "~").exists()


def test_a_folder_for_the_database_file_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    done = _run_bot(tmp_path, UMTALI_DB_PATH="data")
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("error: UMTALI_DB_PATH must name the database file, not the folder "
                           "'data': such as 'data/umtali.sqlite3'.\n")


@pytest.mark.parametrize("engine", ["Interpreted", "interpretted", "sources", " interpreted"])
def test_an_engine_the_bot_would_not_run_is_one_sentence(tmp_path: Path, engine: str) -> None:
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")}
    env |= {"DISCORD_TOKEN": "tok", "PYTHONPATH": str(ROOT), "UMTALI_ENGINE": engine}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"error: UMTALI_ENGINE must be interpreted (the rules engine from "
                           f"its Python sources) or empty (compiled, where make compiled it), "
                           f"not {engine!r}.\n")
    assert not (tmp_path / "data").exists()  # stopped before the database was made


def test_a_missing_folder_for_the_database_is_one_sentence(tmp_path: Path) -> None:
    # A typo in the folder would start an empty database elsewhere: refused, nothing made.
    done = _run_bot(tmp_path, UMTALI_DB_PATH="dtaa/umtali.sqlite3")
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("error: UMTALI_DB_PATH names a file in the folder 'dtaa', which does "
                           "not exist: correct the path, or create the folder for a new "
                           "database.\n")
    assert not (tmp_path / "dtaa").exists()


def test_the_default_data_folder_is_made(tmp_path: Path) -> None:
    # A fresh clone has no data/ yet: the bot makes it (stopped once the database is open).
    done = _run_bot(tmp_path, UMTALI_DISCORD_API="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1, done.stderr
    assert (tmp_path / "data" / "umtali.sqlite3").is_file()
    done = _run_bot(tmp_path, UMTALI_DB_PATH="data/other.sqlite3",
                    UMTALI_DISCORD_API="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1, done.stderr
    assert (tmp_path / "data" / "other.sqlite3").is_file()
