"""The one SQLite connection: opened once at start-up, WAL, migrated in place.

Every write goes through ``transaction()``, which holds a lock so that two coroutines sharing
the connection can never interleave their statements inside one transaction.
"""

from __future__ import annotations

import asyncio
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


class Database:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._lock = asyncio.Lock()
        self._queued: list[tuple[Job[Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    @staticmethod
    async def open(path: str | Path) -> Database:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        # FULL: a commit reaches the disk before it is acknowledged. With WAL, NORMAL could
        # lose the last moves to a power cut, after their players were told they were saved.
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON",
                       "busy_timeout = 5000"):
            # Some pragmas answer with a row: close each cursor so no statement stays open.
            async with conn.execute(f"PRAGMA {pragma}"):
                pass
        db = Database(conn)
        await db.migrate()
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        current = await self.schema_version()
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
                    for job, future in jobs:
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
        async with self.conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, params) as cur:
            return list(await cur.fetchall())
