"""Reads outside a transaction on the one SQLite connection, while another connection (another
bot process on the same file) holds the write lock.

SQLite does not wait for a lock that a connection with an open read statement asks for while
another connection writes (waiting could deadlock): its BEGIN IMMEDIATE fails at once with
"database is locked", busy timeout or not. A read whose cursor stayed open across the
connection's queue, while a transaction began behind it, would turn a wait of a second into a
failed save.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from data.db import Database
from tests.db_lock import write_locked


async def test_a_write_queued_behind_a_read_waits_for_another_process_lock(
        tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    db = await Database.open(path)
    try:
        async with db.transaction() as tx:
            for i in range(200):
                await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'v')", (f"k{i}",))
        async with write_locked(path, 1.0):
            start = time.perf_counter()
            # The read is queued first, the transaction's BEGIN right behind it.
            read = asyncio.ensure_future(db.fetchall("SELECT key FROM meta ORDER BY key"))
            one = asyncio.ensure_future(db.fetchone("SELECT key FROM meta ORDER BY key"))

            async def write() -> None:
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO meta (key, value) VALUES ('after', 'v')")

            await asyncio.sleep(0)
            await asyncio.gather(read, one, write())
            waited = time.perf_counter() - start
        assert len(read.result()) == 200
        row = one.result()
        assert row is not None and row["key"] == "k0"
        # It waited for the other connection's lock, and no longer.
        assert 0.9 < waited < 3.0
        assert await db.fetchone("SELECT value FROM meta WHERE key = 'after'") is not None
    finally:
        await db.close()


async def test_a_read_never_shows_a_transaction_that_is_then_rolled_back(tmp_path: Path) -> None:
    """The one connection is shared: a read made while another coroutine's transaction is open
    waits for it to end, so what a failed commit takes back was never shown."""
    db = await Database.open(tmp_path / "umtali.sqlite3")
    try:
        written = asyncio.Event()

        async def reader() -> object:
            await written.wait()
            row = await db.fetchone("SELECT value FROM meta WHERE key = 'ghost'")
            return None if row is None else row["value"]

        # Made outside the transaction, as another match's lookup would be.
        read = asyncio.ensure_future(reader())
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('ghost', 'v')")
                written.set()
                await asyncio.sleep(0.05)  # the read is under way meanwhile
                assert not read.done()
                raise RuntimeError("the save fails after its write")
        assert await read is None
    finally:
        await db.close()


async def test_reads_inside_a_transaction_see_its_writes_without_waiting(tmp_path: Path) -> None:
    """The transaction's own code (a batched job too) reads at once: no waiting on itself."""
    db = await Database.open(tmp_path / "umtali.sqlite3")
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('mine', 'v')")
            row = await asyncio.wait_for(
                db.fetchone("SELECT value FROM meta WHERE key = 'mine'"), 2)
            assert row is not None

        async def job(tx: object) -> int:
            rows = await db.fetchall("SELECT key FROM meta WHERE key = 'mine'")
            return len(rows)

        assert await asyncio.wait_for(db.batched(job), 2) == 1
    finally:
        await db.close()
