"""The one SQLite connection: opened once at start-up, WAL, migrated in place.

Every write goes through ``transaction()``, which holds a lock so that two coroutines sharing
the connection can never interleave their statements inside one transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from data.migrations import MIGRATIONS

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Result:
    rowcount: int
    lastrowid: int


class Tx:
    """Statements inside one transaction; every cursor is closed at once, so COMMIT never
    finds a statement still in progress."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: tuple[object, ...] = ()) -> Result:
        cur = await self.conn.execute(sql, params)
        try:
            return Result(cur.rowcount, cur.lastrowid or 0)
        finally:
            await cur.close()


class Database:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._lock = asyncio.Lock()

    @staticmethod
    async def open(path: str | Path) -> Database:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON",
                       "busy_timeout = 5000"):
            await Tx(conn).execute(f"PRAGMA {pragma}")
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
            except BaseException:
                await tx.execute("ROLLBACK")
                raise
            await tx.execute("COMMIT")

    async def fetchone(self, sql: str, params: tuple[object, ...] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, params) as cur:
            return list(await cur.fetchall())
