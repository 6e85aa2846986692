"""A start waiting for a database another process holds stops within a second of a Ctrl-C or
SIGTERM, its first try too (review165): that try waited SQLite's whole 5 s busy timeout in
aiosqlite's thread, which is no daemon, so the process stayed up to 5 s after the signal. The
bot's own 5 s busy timeout is kept once the database is open."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import aiosqlite

from data.db import BUSY_TIMEOUT, Database
from tests.test_startup import HELD


def _connection_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if isinstance(t, aiosqlite.Connection)]


async def test_a_signal_in_the_first_try_stops_the_start_within_a_second(
        tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    assert BUSY_TIMEOUT == 5.0  # the real one: no test's shorter busy timeout here
    async with HELD["write lock"](db):
        opening = asyncio.create_task(Database.open(db, wait=60))
        await asyncio.sleep(0.3)  # the first try, waiting for the lock
        assert not opening.done()
        opening.cancel()  # as the bot's SIGINT/SIGTERM handler stops its start
        cancelled = time.monotonic()
        await asyncio.gather(opening, return_exceptions=True)
        # The process ends once aiosqlite's thread (no daemon) does.
        while _connection_threads() and time.monotonic() - cancelled < 10:
            await asyncio.sleep(0.02)
        took = time.monotonic() - cancelled
    assert opening.cancelled()
    assert took < 1.5, f"the start took {took:.1f} s to stop"


async def test_once_open_the_busy_timeout_is_the_bots_own(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "umtali.sqlite3", wait=60)
    try:
        async with db.conn.execute("PRAGMA busy_timeout") as rows:
            row = await rows.fetchone()
        assert row is not None and tuple(row) == (int(BUSY_TIMEOUT * 1000),)
    finally:
        await db.close()
