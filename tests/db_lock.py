"""Another process's write on the same SQLite file: a second connection holding the write lock
for a while, as a long write elsewhere would."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path


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
