"""The schema's version read while the bot runs (the outgrown check, every ten seconds in the
timers' task) must not leave a statement open on the one SQLite connection.

Read through a cursor, in three trips to the connection's thread (execute, fetch, close), the
PRAGMA's statement stays open between them: a save whose BEGIN IMMEDIATE is queued behind the
first trip runs with it open, and SQLite then refuses that BEGIN at once while another process
holds the write lock ("database is locked", no busy wait), where it would have waited a moment.
And the timers' task cancelled at the bot's close as the first trip returns keeps the cursor (in
the cancelled future, kept with the exception's traceback) with its statement open: the
connection keeps its old snapshot, and its next BEGIN IMMEDIATE is refused at once once another
process has written (SQLITE_BUSY_SNAPSHOT): the close's own saves (its heartbeat, its leases'
release) fail.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from data.migrations import MIGRATIONS
from data.sqlite_db import SqliteDatabase
from tests.db_lock import cancelled_as_it_returns, saves_after_another_process_wrote, write_locked


async def test_a_save_queued_behind_the_schema_read_waits_for_another_process_lock(
        tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    db = await SqliteDatabase.open(path)
    try:
        async with write_locked(path, 0.5):
            # The outgrown check's read is queued first, a move's BEGIN right behind it.
            version = asyncio.ensure_future(db.schema_version())

            async def save() -> None:
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO meta (key, value) VALUES ('move', 'v')")

            saving = asyncio.ensure_future(save())
            await asyncio.gather(version, saving, return_exceptions=True)
        assert version.result() == len(MIGRATIONS)
        saving.result()  # waited for the other process's lock, as a save does
        assert await db.fetchone("SELECT value FROM meta WHERE key = 'move'") is not None
    finally:
        await db.close()


async def test_the_schema_read_cancelled_as_it_returns_leaves_the_next_save_able_to_wait(
        tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    db = await SqliteDatabase.open(path)
    try:
        reading = asyncio.ensure_future(db.schema_version())
        await asyncio.sleep(0)  # its first trip is on the connection's queue
        await cancelled_as_it_returns(reading)

        await saves_after_another_process_wrote(db, path)
    finally:
        await db.close()
