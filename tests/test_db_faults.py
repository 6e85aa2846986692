"""Transactions under faults, on a real SQLite file and a real PostgreSQL database: a COMMIT
that fails, a job that fails part-way through a shared transaction, a power cut after a
commit."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import asyncpg
import pytest

from data.db import INTEGRITY_ERRORS, Database, Tx
from data.store import Store


async def _keys(target: str | Path) -> list[str]:
    """The meta keys another connection sees (what is committed)."""
    sql = "SELECT key FROM meta ORDER BY key"
    if isinstance(target, str):
        other = await asyncpg.connect(target)
        try:
            return [r[0] for r in await other.fetch(sql)]
        finally:
            await other.close()
    with sqlite3.connect(target) as lite:
        rows = lite.execute(sql).fetchall()
    lite.close()
    return [r[0] for r in rows]


@pytest.fixture
async def db(store_target: str | Path) -> AsyncIterator[Database]:
    # Closed even when a test fails: an open connection's thread keeps pytest from exiting.
    db = await Database.open(store_target)
    yield db
    await db.close()


async def _fail_at_commit(db: Database, tx: Tx) -> None:
    """Write what only the COMMIT finds wrong: a move of a match that does not exist."""
    if db.dialect == "sqlite":
        row = await db.fetchone("PRAGMA foreign_keys")
        assert row is not None and row[0] == 1
        await tx.execute("PRAGMA defer_foreign_keys = ON")
        await tx.execute("INSERT INTO moves (match_id, ply, seat, move, at) "
                         "VALUES (999, 0, 0, 'draw', 0)")
    else:  # PostgreSQL checks only a deferrable key at COMMIT: a table made for the test
        await tx.execute("INSERT INTO later_check (match_id) VALUES (999)")


async def _put(tx: Tx, key: str) -> None:
    await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'v')", (key,))


async def test_a_failed_commit_rolls_back_and_the_connection_goes_on(
        db: Database, store_target: str | Path) -> None:
    if db.dialect == "postgresql":
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE later_check (match_id BIGINT REFERENCES matches (id) "
                             "DEFERRABLE INITIALLY DEFERRED)")
    with pytest.raises(INTEGRITY_ERRORS):
        async with db.transaction() as tx:
            await _put(tx, "lost")
            await _fail_at_commit(db, tx)  # checked at COMMIT only: the COMMIT itself fails
    # Nothing of it, for this connection or any other.
    assert await db.fetchone("SELECT * FROM meta") is None
    assert await db.fetchone("SELECT * FROM moves") is None
    assert await _keys(store_target) == []
    # The next transaction begins and commits.
    async with db.transaction() as tx:
        await _put(tx, "kept")
    assert await _keys(store_target) == ["kept"]


async def test_a_job_failing_part_way_leaves_none_of_its_writes(
        db: Database, store_target: str | Path) -> None:
    # A first group stays open until released, so that the next three jobs queue up behind
    # it and share one transaction.
    release = asyncio.Event()

    async def first(tx: Tx) -> str:
        await release.wait()
        await _put(tx, "first")
        return "first"

    async def ok(tx: Tx, key: str) -> str:
        await _put(tx, key)
        return key

    async def half(tx: Tx) -> str:
        await _put(tx, "half")
        raise LookupError("refused after writing")

    async def refused(tx: Tx) -> str:
        # The database refuses it (PostgreSQL: its transaction would be aborted, but for the
        # job's savepoint).
        await _put(tx, "refused")
        await _put(tx, "first")
        return "never"

    pending = asyncio.ensure_future(db.batched(first))
    await asyncio.sleep(0)
    group = asyncio.gather(db.batched(lambda tx: ok(tx, "a")), db.batched(half),
                           db.batched(refused), db.batched(lambda tx: ok(tx, "c")),
                           return_exceptions=True)
    await asyncio.sleep(0)
    assert len(db._queued) == 4, "the four jobs wait together"
    release.set()
    assert await pending == "first"
    a, b, refusal, c = await group
    assert (a, c) == ("a", "c")
    assert isinstance(b, LookupError)
    assert isinstance(refusal, INTEGRITY_ERRORS)
    assert await _keys(store_target) == ["a", "c", "first"]


async def test_commits_are_durable_before_they_are_acknowledged(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        # FULL (2): with WAL, NORMAL (1) may lose the last commits to a power cut.
        row = await store.db.fetchone("PRAGMA synchronous")
        assert row is not None and row[0] == 2
    finally:
        await store.close()


def _cancelled_at(monkeypatch: pytest.MonkeyPatch, statement: str) -> None:
    """The caller of ``statement`` is cancelled while aiosqlite's thread runs it anyway, as
    when a bot stops in the middle of a save or of a lease's renewal."""
    from data.sqlite_db import SqliteTx
    run = SqliteTx.execute
    pending: list[asyncio.Future[object]] = []

    async def execute(self: SqliteTx, sql: str, params: Sequence[object] = ()) -> object:
        if sql != statement or pending:
            return await run(self, sql, params)
        pending.append(asyncio.ensure_future(run(self, sql, params)))
        await asyncio.sleep(0)  # handed to the thread: it goes on whatever happens here
        raise asyncio.CancelledError

    monkeypatch.setattr(SqliteTx, "execute", execute)


@pytest.mark.parametrize("statement", ["BEGIN IMMEDIATE", "COMMIT"])
async def test_a_transaction_cancelled_at_begin_or_commit_leaves_the_connection_usable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        statement: str) -> None:
    path = tmp_path / "umtali.sqlite3"
    db = await Database.open(path)
    try:
        _cancelled_at(monkeypatch, statement)
        with pytest.raises(asyncio.CancelledError):
            async with db.transaction() as tx:
                await _put(tx, "cancelled")
        # Cancelled at its COMMIT, the write is in, and said so; at its BEGIN, nothing was.
        assert await _keys(path) == (["cancelled"] if statement == "COMMIT" else [])
        async with db.transaction() as tx:
            await _put(tx, "next")
        assert "next" in await _keys(path)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
    finally:
        await db.close()


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_a_transaction_cancelled_during_its_commit_on_postgresql_leaves_the_pool_usable(
        db: Database, store_target: str | Path, caplog: pytest.LogCaptureFixture) -> None:
    """The PostgreSQL side of the test above, with a real cancellation: the COMMIT is kept
    busy on the server (a deferred trigger that sleeps), and the saving task is cancelled
    while it waits, as when the bot stops mid-save. asyncpg asks the server to cancel it."""
    assert db.dialect == "postgresql"
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE slow_rows (k TEXT)")
        await tx.execute("CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS "
                         "$$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$")
        await tx.execute("CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON slow_rows "
                         "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
                         "EXECUTE FUNCTION slow_commit()")
    committing = asyncio.Event()

    async def save() -> None:
        async with db.transaction() as tx:
            await _put(tx, "cancelled")
            await tx.execute("INSERT INTO slow_rows (k) VALUES ('x')")
            committing.set()

    started = asyncio.get_running_loop().time()
    task = asyncio.create_task(save())
    await committing.wait()
    await asyncio.sleep(0.3)  # the COMMIT is on the server, sleeping in the trigger
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The server was told to stop: nobody waited out the trigger's five seconds.
    assert asyncio.get_running_loop().time() - started < 4
    # Cancelled in the middle of its COMMIT, the transaction is rolled back: none of it.
    assert await _keys(store_target) == []
    # Every connection of the pool goes on: more transactions than it holds connections.
    for n in range(12):
        async with db.transaction() as tx:
            await _put(tx, f"next{n:02}")
    assert [k for k in await _keys(store_target) if k.startswith("next")] == [
        f"next{n:02}" for n in range(12)]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
