"""The write-ahead log does not stay at its peak: after a spike (a reader held a snapshot
while much was written, so no checkpoint could reset it), the log is cut back to
``WAL_KEPT`` once checkpointed (review134: with no limit the -wal file kept its peak size
until the bot stopped)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data import sqlite_db
from data.sqlite_db import SqliteDatabase


async def test_the_log_is_cut_back_after_a_spike(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_db, "WAL_KEPT", 256 * 1024)
    path = tmp_path / "umtali.sqlite3"
    db = await SqliteDatabase.open(path)
    wal = Path(f"{path}-wal")
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE scratch (blob BLOB)")
        # Another connection holds a snapshot (as a long backup does): meanwhile no
        # checkpoint can start the log over, and it grows.
        reader = sqlite3.connect(path)
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        for _ in range(40):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO scratch VALUES (?)", (bytes(64 * 1024),))
        assert wal.stat().st_size > 2 * 1024 * 1024
        reader.rollback()
        reader.close()
        # The snapshot gone, a checkpoint and the next write start the log over.
        async with db.conn.execute("PRAGMA wal_checkpoint(PASSIVE)"):
            pass
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO scratch VALUES (x'00')")
        assert wal.stat().st_size <= 256 * 1024
    finally:
        await db.close()
