"""The one SQLite connection: opened once at start-up, WAL, migrated in place.

Every write goes through ``transaction()``, which holds a lock so that two coroutines sharing
the connection can never interleave their statements inside one transaction.
A database that cannot be used (damaged, locked, from a newer bot) is refused at once with
``DatabaseUnusable``, its connection closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from data.migrations import MIGRATIONS

log = logging.getLogger(__name__)

#: Seconds a statement waits for another process's lock before it fails.
BUSY_TIMEOUT = 5.0

T = TypeVar("T")
#: Work done inside a shared transaction.
Job = Callable[["Tx"], Awaitable[T]]


@dataclass(frozen=True, slots=True)
class Result:
    rowcount: int
    lastrowid: int


class Tx:
    """Statements inside one transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: tuple[object, ...] = ()) -> Result:
        """Run a statement that returns no rows (those run to completion at once, so their
        cursor needs no closing: one trip to the database thread, not two)."""
        cur = await self.conn.execute(sql, params)
        return Result(cur.rowcount, cur.lastrowid or 0)

    async def fetchone(self, sql: str, params: tuple[object, ...] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, params) as cur:
            return list(await cur.fetchall())


class DatabaseUnusable(Exception):
    """The database cannot be opened as it is; the message is one sentence for whoever runs
    the bot."""


class SchemaTooNew(Exception):
    """The database was migrated by a newer bot, to a schema this one does not know."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(found, known)
        self.found, self.known = found, known


def _why(path: str | Path, e: BaseException) -> str:
    """One sentence on why ``path`` cannot be used, and what to do about it."""
    code = getattr(e, "sqlite_errorname", "")
    if isinstance(e, SchemaTooNew):
        return (f"the database {path} has schema version {e.found}, newer than this bot "
                f"knows ({e.known}): run the newer bot that wrote it, or restore a backup.")
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return (f"the database {path} is locked by another process (still after "
                f"{BUSY_TIMEOUT:g} s): stop it (another copy of the bot?) and start again.")
    if code.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return (f"the database {path} is damaged or not an SQLite database ({e}): restore a "
                f"backup, or move the file away to start with an empty database.")
    return f"the database {path} cannot be opened ({e})."


class Database:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._lock = asyncio.Lock()
        self._queued: list[tuple[Job[Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    @staticmethod
    async def open(path: str | Path) -> Database:
        """The database at ``path``, migrated and writable; DatabaseUnusable if it cannot be."""
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            conn = await aiosqlite.connect(str(path), isolation_level=None,
                                           timeout=BUSY_TIMEOUT)
        except (OSError, sqlite3.Error) as e:
            raise DatabaseUnusable(_why(path, e)) from e
        try:
            db = Database(conn)
            await db._prepare()
            return db
        except BaseException as e:
            # aiosqlite's worker thread is not a daemon: left open, it keeps the process alive.
            with contextlib.suppress(Exception):
                await conn.close()
            if isinstance(e, sqlite3.Error | SchemaTooNew):
                raise DatabaseUnusable(_why(path, e)) from e
            raise

    async def _prepare(self) -> None:
        self.conn.row_factory = aiosqlite.Row
        # FULL: a commit reaches the disk before it is acknowledged. With WAL, NORMAL could
        # lose the last moves to a power cut, after their players were told they were saved.
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            # Some pragmas answer with a row: close each cursor so no statement stays open.
            async with self.conn.execute(f"PRAGMA {pragma}"):
                pass
        await self.migrate()
        # A database another process keeps locked is refused now, not at the first move.
        async with self.transaction():
            pass

    async def close(self) -> None:
        await self.conn.close()

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise SchemaTooNew(current, len(MIGRATIONS))
        for number, statements in enumerate(MIGRATIONS, 1):
            if number <= current:
                continue
            async with self.transaction() as conn:
                for sql in statements:
                    await conn.execute(sql)
                await conn.execute(f"PRAGMA user_version = {number}")
            log.info("database migrated to schema %d", number)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            tx = Tx(self.conn)
            await tx.execute("BEGIN IMMEDIATE")
            try:
                yield tx
                await tx.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        # A failed COMMIT leaves its transaction open (and the connection unable to begin
        # another); some errors (a full disk) have already ended it.
        if not self.conn.in_transaction:
            return
        try:
            await Tx(self.conn).execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rollback failed")  # the caller gets the error that caused it

    async def batched(self, job: Job[T]) -> T:
        """Run ``job`` in a transaction shared with the other jobs queued meanwhile.

        Many matches saving moves at once then pay for one commit, not one each. Each job runs
        in a savepoint: one that raises leaves none of its writes and its error is its own,
        while the others commit. The result comes back only once the transaction is committed.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        return await future

    async def _write_queued(self) -> None:
        while self._queued:
            jobs, self._queued = self._queued, []
            done: list[tuple[asyncio.Future[Any], Any]] = []
            try:
                async with self.transaction() as tx:
                    if len(jobs) == 1:
                        # Alone in its transaction, a failing job is undone by the rollback:
                        # no savepoint to pay for (the common case at a human pace).
                        job, future = jobs[0]
                        done.append((future, await job(tx)))
                    for job, future in jobs if len(jobs) > 1 else ():
                        await tx.execute("SAVEPOINT job")
                        try:
                            result = await job(tx)
                        except Exception as e:  # the job's own failure: undo its writes only
                            await tx.execute("ROLLBACK TO job")
                            await tx.execute("RELEASE job")
                            if not future.done():
                                future.set_exception(e)
                        else:
                            await tx.execute("RELEASE job")
                            done.append((future, result))
            except BaseException as e:
                for _, future in jobs:
                    if not future.done():
                        future.set_exception(e)
                if not isinstance(e, Exception):
                    raise
                continue
            for future, result in done:
                if not future.done():
                    future.set_result(result)

    async def fetchone(self, sql: str, params: tuple[object, ...] = ()) -> aiosqlite.Row | None:
        return await Tx(self.conn).fetchone(sql, params)

    async def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[aiosqlite.Row]:
        return await Tx(self.conn).fetchall(sql, params)
