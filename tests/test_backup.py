"""Backing up the live database (``python -m data.backup``) while the bot writes to it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

import pytest

from data.backup import BackupError, backup
from data.db import Database
from data.store import Store

ROOT = Path(__file__).resolve().parents[1]


def _read(path: Path) -> tuple[str, str, list[str]]:
    """A backup's integrity check, journal mode and meta keys."""
    with closing(sqlite3.connect(path)) as db:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        keys = [r[0] for r in db.execute("SELECT key FROM meta ORDER BY key")]
    return check, mode, keys


async def _committed(db: Database, *keys: str) -> None:
    for key in keys:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, "v" * 3000))


async def test_a_backup_taken_mid_write_holds_what_was_committed(tmp_path: Path) -> None:
    live = tmp_path / "umtali.sqlite3"
    db = await Database.open(live)
    try:
        await _committed(db, "a", "b", "c")
        # The commits are still in the write-ahead log, not yet in the database file.
        assert live.with_name(live.name + "-wal").stat().st_size > 0
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('in progress', 'v')")
            made = await asyncio.to_thread(backup, live, tmp_path / "copy.sqlite3")
        await _committed(db, "d")
    finally:
        await db.close()
    assert made.pages > 0 and made.path == tmp_path / "copy.sqlite3"
    assert _read(tmp_path / "copy.sqlite3") == ("ok", "delete", ["a", "b", "c"])
    assert not list(tmp_path.glob("copy.sqlite3?*")), "no log, no partial file beside it"


async def test_a_backup_of_a_closed_database(tmp_path: Path) -> None:
    live = tmp_path / "umtali.sqlite3"
    store = await Store.open(live)
    await _committed(store.db, "a")
    await store.close()
    backup(live, tmp_path / "copy.sqlite3")
    assert _read(tmp_path / "copy.sqlite3") == ("ok", "delete", ["a"])


def test_a_backup_never_overwrites_nor_invents(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "copy.sqlite3")
    assert not (tmp_path / "copy.sqlite3").exists()
    assert not (tmp_path / "missing.sqlite3").exists()
    (tmp_path / "live.sqlite3").write_bytes(b"")
    (tmp_path / "copy.sqlite3").write_bytes(b"older")
    with pytest.raises(BackupError, match="exists already"):
        backup(tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3")
    assert (tmp_path / "copy.sqlite3").read_bytes() == b"older"


def _command(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMTALI_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "data.backup", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


async def test_the_command_backs_up_the_database_the_bot_uses(tmp_path: Path) -> None:
    # The bot's setting, from the working directory's .env as the bot reads it.
    (tmp_path / ".env").write_text("UMTALI_DB_PATH=games/live.sqlite3\n")
    store = await Store.open(tmp_path / "games" / "live.sqlite3")
    try:
        await _committed(store.db, "a")
        named = await asyncio.to_thread(_command, tmp_path, "named.sqlite3")
        dated = await asyncio.to_thread(_command, tmp_path)
    finally:
        await store.close()
    assert named.returncode == 0, named.stderr
    assert _read(tmp_path / "named.sqlite3") == ("ok", "delete", ["a"])
    assert dated.returncode == 0, dated.stderr
    [copy] = (tmp_path / "games" / "backups").glob("live-*Z.sqlite3")
    assert str(copy.relative_to(tmp_path)) in dated.stdout
    assert _read(copy) == ("ok", "delete", ["a"])
    again = _command(tmp_path, "named.sqlite3")
    assert again.returncode == 1
    assert again.stderr.count("\n") == 1 and "exists already" in again.stderr


def test_two_backups_at_once_never_share_a_partial_file(tmp_path: Path) -> None:
    """Two backups begun in the same second to the same name (the default one, two admins or a
    cron job and a hand): the one still writing keeps its partial file, never opened, cut short
    or deleted by the other."""
    live = tmp_path / "umtali.sqlite3"
    with closing(sqlite3.connect(live)) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('a', 'v')")
        db.commit()
    dest = tmp_path / "copy.sqlite3"
    # What the other backup has written so far, under the name it chose.
    others = [dest.with_name(dest.name + ".part"), *[
        dest.with_name(f"{dest.name}.{n}.part") for n in range(3)]]
    for other in others:
        other.write_bytes(b"the other backup's pages, half written")
    backup(live, dest)
    assert _read(dest) == ("ok", "delete", ["a"])
    assert dest.stat().st_mode & 0o777 == 0o600, "every hand dealt: its owner's alone"
    for other in others:
        assert other.read_bytes() == b"the other backup's pages, half written"


def test_a_backup_never_overwrites_a_file_made_while_it_copied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The name free as the backup began, taken by another backup before this one finished:
    this one says so, and the other's file stands."""
    live = tmp_path / "umtali.sqlite3"
    with closing(sqlite3.connect(live)) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.commit()
    dest = tmp_path / "copy.sqlite3"
    real = sqlite3.connect

    def connect(database: str | Path, **kwargs: Any) -> sqlite3.Connection:
        # The copy is opened after the check that the name is free: the other backup lands now.
        if str(database).endswith(".part") and not dest.exists():
            dest.write_bytes(b"the other backup")
        made: sqlite3.Connection = real(database, **kwargs)
        return made

    monkeypatch.setattr(sqlite3, "connect", connect)
    with pytest.raises(BackupError, match="exists already"):
        backup(live, dest)
    assert dest.read_bytes() == b"the other backup"
    assert not list(tmp_path.glob("copy.sqlite3.*")), "its partial file removed"


def test_backups_named_with_the_same_second_are_numbered(tmp_path: Path) -> None:
    """Two `make backup DEST=dir` in one second: the second is `…Z-2.sqlite3`, not refused; a
    file named by the user is never numbered."""
    live = tmp_path / "umtali.sqlite3"
    with closing(sqlite3.connect(live)) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.commit()
    dest = tmp_path / "backups" / "umtali-20260101-120000Z.sqlite3"
    first = backup(live, dest, numbered=True)
    second = backup(live, dest, numbered=True)
    assert first.path == dest
    assert second.path == dest.with_name("umtali-20260101-120000Z-2.sqlite3")
    assert _read(second.path) == ("ok", "delete", [])
    with pytest.raises(BackupError, match="exists already"):
        backup(live, dest)


def test_the_command_twice_in_one_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from data import backup as command

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UMTALI_DB_PATH", "live.sqlite3")
    with closing(sqlite3.connect(tmp_path / "live.sqlite3")) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.commit()

    class Frozen(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> Frozen:
            return cls(2026, 1, 1, 12, 0, 0, tzinfo=tz)

    monkeypatch.setattr(command, "datetime", Frozen)
    assert command.main(["saved/"]) == 0
    assert command.main(["saved/"]) == 0
    said = capsys.readouterr().out
    assert "saved/live-20260101-120000Z.sqlite3 (" in said
    assert "saved/live-20260101-120000Z-2.sqlite3 (" in said
    assert len(list((tmp_path / "saved").glob("*.sqlite3"))) == 2
