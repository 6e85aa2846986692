"""A COMMIT that goes through, answered by an error: the fault injected at the driver's boundary.

``lose_answer`` wraps a database's own transactions (``Database._begin``): each runs and commits
for real (SQLite's COMMIT, PostgreSQL's), and then the one that wrote a given statement raises
what the driver raises when the connection drops before the COMMIT's answer, or a disk fails as
SQLite ends it. Optionally the reads that follow fail too (the database still out of reach).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest

from data.db import Database, Result, Row, Tx

#: The answer to an action whose save may or may not have gone through (``InDoubt``).
MAYBE = "may or may not have been saved"


def lost(db: Database) -> BaseException:
    """What the driver of ``db``'s backend raises for a COMMIT whose answer never came."""
    if db.dialect == "postgresql":
        return asyncpg.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation")
    return sqlite3.OperationalError("disk I/O error")


class _Watched(Tx):
    """A transaction's statements, noted as they go to the real one."""

    def __init__(self, inner: Tx, said: list[str]) -> None:
        self.inner, self.said = inner, said
        self.CLAIM = inner.CLAIM

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def serialise(self, keys: Iterable[int]) -> None:
        await self.inner.serialise(keys)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> Result:
        self.said.append(sql)
        return await self.inner.execute(sql, params)

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        self.said.append(sql)
        return await self.inner.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        self.said.append(sql)
        return await self.inner.fetchall(sql, params)


@dataclass
class Lost:
    """What ``lose_answer`` did: the answers lost so far, the reads failed since."""

    answers: int = 0
    reads: int = 0
    #: Reads still to fail.
    failing: int = 0
    errors: list[BaseException] = field(default_factory=list)


def lose_answer(monkeypatch: pytest.MonkeyPatch, db: Database, wrote: str, *, times: int = 1,
                reads_fail: int = 0,
                error: Callable[[Database], BaseException] = lost) -> Lost:
    """The next ``times`` transactions of ``db`` with a statement containing ``wrote`` commit,
    then raise ``error`` (the driver's, by default); after each, the next ``reads_fail`` reads
    outside a transaction fail as well."""
    real_begin, real_one, real_all = db._begin, db.fetchone, db.fetchall
    done = Lost()

    @asynccontextmanager
    async def begin() -> AsyncIterator[Tx]:
        said: list[str] = []
        async with real_begin() as tx:
            yield _Watched(tx, said)
        # Committed: the answer is lost on its way back.
        if done.answers < times and any(wrote in sql for sql in said):
            done.answers += 1
            done.failing = reads_fail
            e = error(db)
            done.errors.append(e)
            raise e

    def failing_read(real: Any) -> Any:
        async def read(sql: str, params: Sequence[object] = ()) -> Any:
            if done.failing > 0:
                done.failing -= 1
                done.reads += 1
                raise error(db)
            return await real(sql, params)
        return read

    monkeypatch.setattr(db, "_begin", begin)
    monkeypatch.setattr(db, "fetchone", failing_read(real_one))
    monkeypatch.setattr(db, "fetchall", failing_read(real_all))
    return done

