"""A transaction cancelled as one of its reads returns (a bot stopping, a delivery handed
over) must not leave that read's statement open.

Cancelled once the read's result had reached its future, but before the task resumed, the
task is thrown its cancellation instead of the cursor, which stays referenced by the future
(kept with the exception's traceback) with its statement open. The open statement keeps the
connection's snapshot of the database after the rollback: once another process has
committed, SQLite refuses this connection's next BEGIN IMMEDIATE at once ("database is
locked", SQLITE_BUSY_SNAPSHOT, no busy wait) and a member's move fails. Seen in the
two-process fault soak (seed 1024): a click answered "something went wrong" 14 ms after it
arrived.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from data.sqlite_db import SqliteDatabase
from tests.db_lock import cancelled_as_it_returns, saves_after_another_process_wrote


async def test_a_transaction_cancelled_as_a_read_returns_leaves_the_next_save_able_to_wait(
        tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    db = await SqliteDatabase.open(path)
    entered, release = threading.Event(), threading.Event()

    def hold() -> int:
        # Runs on the connection's thread, inside the read's first step.
        if not entered.is_set():
            entered.set()
            release.wait(5)
        return 1

    try:
        async with db.transaction() as tx:
            for i in range(20):
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'v')", (f"k{i}",))
        await db.conn.create_function("hold", 0, hold)

        async def read() -> None:
            async with db.transaction() as tx:
                await tx.execute("UPDATE meta SET value = 'w' WHERE key = 'k0'")
                await tx.fetchone("SELECT key, hold() FROM meta")

        reading = asyncio.ensure_future(read())
        assert await asyncio.to_thread(entered.wait, 5)
        release.set()
        await cancelled_as_it_returns(reading)

        await saves_after_another_process_wrote(db, path)
    finally:
        release.set()
        await db.close()
