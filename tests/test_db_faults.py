"""Transactions under faults, on real SQLite files: a COMMIT that fails, a job that fails
part-way through a shared transaction, a power cut after a commit."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.db import Database, Tx
from data.store import Store


def _keys(path: Path) -> list[str]:
    """The meta keys another connection sees (what is committed)."""
    with sqlite3.connect(path) as other:
        rows = other.execute("SELECT key FROM meta ORDER BY key").fetchall()
    other.close()
    return [r[0] for r in rows]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    # Closed even when a test fails: an open connection's thread keeps pytest from exiting.
    db = await Database.open(tmp_path / "db.sqlite3")
    yield db
    await db.close()


async def _put(tx: Tx, key: str) -> None:
    await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'v')", (key,))


async def test_a_failed_commit_rolls_back_and_the_connection_goes_on(
        db: Database, tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    row = await db.fetchone("PRAGMA foreign_keys")
    assert row is not None and row[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as tx:
            # Checked at COMMIT only: the COMMIT itself fails.
            await tx.execute("PRAGMA defer_foreign_keys = ON")
            await _put(tx, "lost")
            await tx.execute("INSERT INTO moves (match_id, ply, seat, move, at) "
                             "VALUES (999, 0, 0, 'draw', 0)")
    # Nothing of it, for this connection or any other.
    assert await db.fetchone("SELECT * FROM meta") is None
    assert await db.fetchone("SELECT * FROM moves") is None
    assert _keys(path) == []
    # The next transaction begins and commits.
    async with db.transaction() as tx:
        await _put(tx, "kept")
    assert _keys(path) == ["kept"]


async def test_a_job_failing_part_way_leaves_none_of_its_writes(
        db: Database, tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
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

    pending = asyncio.ensure_future(db.batched(first))
    await asyncio.sleep(0)
    group = asyncio.gather(db.batched(lambda tx: ok(tx, "a")), db.batched(half),
                           db.batched(lambda tx: ok(tx, "c")), return_exceptions=True)
    await asyncio.sleep(0)
    assert len(db._queued) == 3, "the three jobs wait together"
    release.set()
    assert await pending == "first"
    a, b, c = await group
    assert (a, c) == ("a", "c")
    assert isinstance(b, LookupError)
    assert _keys(path) == ["a", "c", "first"]


async def test_commits_are_durable_before_they_are_acknowledged(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        # FULL (2): with WAL, NORMAL (1) may lose the last commits to a power cut.
        row = await store.db.fetchone("PRAGMA synchronous")
        assert row is not None and row[0] == 2
    finally:
        await store.close()
