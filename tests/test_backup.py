"""Backing up the live database (``python -m data.backup``) while the bot writes to it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

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
            pages = await asyncio.to_thread(backup, live, tmp_path / "copy.sqlite3")
        await _committed(db, "d")
    finally:
        await db.close()
    assert pages > 0
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
