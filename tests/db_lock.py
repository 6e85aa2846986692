"""Another process's write on the same SQLite file: a second connection holding the write lock
for a while, as a long write elsewhere would, or committing one."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from data.db import Database


@asynccontextmanager
async def write_locked(db_path: Path, seconds: float) -> AsyncIterator[None]:
    """Another connection holds the write lock for ``seconds`` from now (not from the end of
    the block, which waits for it to let go)."""
    other = sqlite3.connect(db_path, isolation_level=None, timeout=0, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")

    def let_go() -> None:
        other.execute("ROLLBACK")
        other.close()

    release = threading.Timer(seconds, let_go)
    release.start()
    try:
        yield
    finally:
        await asyncio.to_thread(release.join)


async def saves_after_another_process_wrote(db: Database, path: Path) -> None:
    """Another connection (another process) commits on ``path``; ``db``'s next save waits
    for its turn and is saved, as is the other's write (a connection still on an older
    snapshot would have its BEGIN IMMEDIATE refused at once: "database is locked")."""
    other = sqlite3.connect(path, isolation_level=None, timeout=5)
    other.execute("INSERT INTO meta (key, value) VALUES ('elsewhere', 'v')")
    other.close()
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('here', 'v')")
    saved = await db.fetchall("SELECT key FROM meta WHERE key IN ('elsewhere', 'here')")
    assert sorted(row["key"] for row in saved) == ["elsewhere", "here"]


async def cancelled_as_it_returns(task: asyncio.Future[Any]) -> None:
    """``task`` cancelled once the result of its call on the connection's thread has reached
    its future, before the task resumes (a bot stopping, a delivery handed over)."""
    # The event loop held up meanwhile, the call ends on its thread and its result is queued
    # for the loop; the cancellation is queued behind it.
    time.sleep(0.3)  # (blocking: the point)
    asyncio.get_running_loop().call_soon(task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert task.cancelled()
