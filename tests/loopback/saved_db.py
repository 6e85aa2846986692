"""The database the bot under test saves to, read as the loopback tests and the fault soak
check it: an SQLite file (a ``Path``), or a PostgreSQL database (its URL, a ``str``), as
several bot processes are run. The checks are synchronous: a PostgreSQL read goes to one
connection per database, kept on a thread of its own with its own event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg

from data.pg_db import numbered

#: An SQLite file, or a PostgreSQL database's URL.
Target = Path | str

#: How long a read may take (the bot holds its locks for milliseconds).
TIMEOUT = 10.0


class ReadStuck(Exception):
    """A read of the database took longer than ``TIMEOUT``: the soak's own trouble, said so
    (a ``TimeoutError`` would read as the bot not doing what was waited for)."""


def exists(db: Target) -> bool:
    """Whether the database was made (a PostgreSQL one is made before the bot starts)."""
    return isinstance(db, str) or db.exists()


def query(db: Target, sql: str, *args: Any) -> list[Any]:
    """The rows of one read (each row by column name or index)."""
    [rows] = in_one_read(db, [(sql, args)])
    return rows


def in_one_read(db: Target, reads: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
    """The rows of each read, all of one snapshot of the database: a save made between two
    of them would set them apart."""
    if isinstance(db, str):
        return _reader(db).run(reads)
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=TIMEOUT,
                                 isolation_level=None)) as c:
        c.row_factory = sqlite3.Row
        c.execute("BEGIN")
        found = [c.execute(sql, tuple(args)).fetchall() for sql, args in reads]
        c.execute("COMMIT")
    return found


class _PgReader:
    """One connection to a PostgreSQL database, on a thread of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop = asyncio.new_event_loop()
        self.conn: asyncpg.Connection[Any] | None = None
        self.thread = threading.Thread(target=self.loop.run_forever, name="soak-pg-reads",
                                       daemon=True)
        self.thread.start()

    def run(self, reads: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        future = asyncio.run_coroutine_threadsafe(self._read(reads), self.loop)
        try:
            return future.result(TIMEOUT)
        except concurrent.futures.TimeoutError:
            # Cancelled, its connection left for a new one: the next read would find this
            # one's still under way ("another operation is in progress").
            future.cancel()  # (its connection closed as the cancellation lands: ``_read``)
            self.conn = None
            raise ReadStuck(f"a read of the database took over {TIMEOUT:g} s: "
                            f"{reads[0][0]!r}") from None

    async def _read(self, reads: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        if self.conn is None or self.conn.is_closed():
            self.conn = await asyncpg.connect(self.url)
        conn = self.conn
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return [list(await conn.fetch(numbered(sql), *args)) for sql, args in reads]
        except BaseException:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                # Given up as stuck (``run``): its connection goes with it, and the read
                # ends cancelled whatever the rollback said (nobody reads its error).
                conn.terminate()
                raise asyncio.CancelledError from None
            raise

    def close(self) -> None:
        async def closed() -> None:
            # A read given up as stuck may still be winding up (its cancellation, asyncpg's
            # own cancel request): ended first, else the loop stopped under them leaves a
            # pending task and an open socket that a later test's setup reports.
            others = asyncio.all_tasks() - {asyncio.current_task()}
            for task in others:
                task.cancel()
            if others:
                await asyncio.wait(others, timeout=TIMEOUT / 2)
            if self.conn is not None:
                await self.conn.close()
        try:
            asyncio.run_coroutine_threadsafe(closed(), self.loop).result(TIMEOUT)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(TIMEOUT)
            if not self.thread.is_alive():
                self.loop.close()  # (its self-pipe's sockets with it)


_readers: dict[str, _PgReader] = {}
_readers_lock = threading.Lock()


def _reader(url: str) -> _PgReader:
    with _readers_lock:
        if url not in _readers:
            _readers[url] = _PgReader(url)
        return _readers[url]


def done_with(db: Target) -> None:
    """Close the connection reading ``db`` (before its database is dropped)."""
    if isinstance(db, str):
        with _readers_lock:
            reader = _readers.pop(db, None)
        if reader is not None:
            reader.close()
