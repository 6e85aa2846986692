"""A start finding the database held by another process's upgrade (a long migration of a big
file, a rolling restart) waits for it, saying so once, for ``wait`` seconds at most, then goes
on with what is left: nothing migrated twice, a schema made newer meanwhile refused as ever.
Past the wait, ``DatabaseHeld`` (exit status 1: it passes by itself). Before, SQLite refused
it after the 5 s busy timeout (exit status 2, which systemd does not restart), and PostgreSQL
waited with no word, for as long as it took, and started on a schema made newer meanwhile."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from data.db import Database, DatabaseHeld, DatabaseUnreachable, DatabaseUnusable
from data.migrations import MIGRATIONS, statements_for
from data.pg_db import MIGRATION_LOCK

LATEST = len(MIGRATIONS)
WAITING = "is held by another process (an upgrade?): waiting for it"
ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The busy timeout (5 s in use) short, as the wait: each test stays within seconds."""
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", 0.3)
    monkeypatch.setattr("data.sqlite_db.RETRY_EVERY", 0.1)


async def older_file(path: Path) -> None:
    """A file of the bot before the last migration (the upgrade still to come)."""
    db = await Database.open(path, schema=LATEST - 1)
    await db.close()


@asynccontextmanager
async def upgrading(path: Path, seconds: float | None, to: int = LATEST
                    ) -> AsyncIterator[None]:
    """Another process upgrades ``path`` to schema ``to`` in one transaction, as the bot does,
    committed ``seconds`` from now (None: as the block ends); ``to`` past this bot's: a newer
    bot's upgrade."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    before = other.execute("PRAGMA user_version").fetchone()[0]
    for number in range(before + 1, min(to, LATEST) + 1):
        for sql in statements_for(number, "sqlite"):
            other.execute(sql)
    other.execute(f"PRAGMA user_version = {to}")

    def commit() -> None:
        other.execute("COMMIT")
        other.close()

    done = threading.Timer(0 if seconds is None else seconds, commit)
    if seconds is not None:
        done.start()
    try:
        yield
    finally:
        if seconds is None:
            done.start()
        await asyncio.to_thread(done.join)


def said(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if text in r.getMessage()]


async def test_a_start_waits_out_another_process_upgrade_and_migrates_nothing_twice(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "umtali.sqlite3"
    await older_file(path)
    async with upgrading(path, 1.5):
        started = time.monotonic()
        # Migration LATEST run a second time would fail (its columns exist): refused.
        db = await Database.open(path, wait=10)
        took = time.monotonic() - started
    try:
        assert await db.schema_version() == LATEST
        # Its tries waited less for the lock (a Ctrl-C is heard sooner); its own busy
        # timeout is back.
        row = await db.fetchone("PRAGMA busy_timeout")
        assert row is not None and row[0] == 300
        assert 1.5 <= took < 5, took
        waiting = said(caplog, WAITING)
        assert len(waiting) == 1 and waiting[0].levelno == logging.WARNING, caplog.text
        assert "10 seconds at most" in waiting[0].getMessage()
        assert not said(caplog, "database migrated"), "migrated here too"
        assert said(caplog, "is free again: starting")
    finally:
        await db.close()


async def test_a_start_waits_for_a_write_past_the_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    await (await Database.open(path)).close()  # at the latest schema
    async with upgrading(path, 1.0, to=LATEST):
        db = await Database.open(path, wait=10)
    await db.close()


async def test_a_start_cancelled_while_waiting_ends_within_a_try(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Ctrl-C while waiting cancels the start: it ends within a short try's busy wait, not
    after the bot's busy timeout (which SQLite waits out in its thread, deaf to a cancel)."""
    caplog.set_level(logging.INFO)
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", 2.0)
    monkeypatch.setattr("data.sqlite_db.RETRY_EVERY", 0.3)
    path = tmp_path / "umtali.sqlite3"
    await older_file(path)
    async with upgrading(path, None):
        opening = asyncio.create_task(Database.open(path, wait=30))
        while not said(caplog, WAITING):
            assert not opening.done(), opening.exception()
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # in a later try
        cancelled = time.monotonic()
        opening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await opening
        assert time.monotonic() - cancelled < 0.6


async def test_a_schema_made_newer_while_waiting_is_refused_at_once(
        tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    await older_file(path)
    async with upgrading(path, 1.0, to=LATEST + 1):
        started = time.monotonic()
        with pytest.raises(DatabaseUnusable) as refused:
            await Database.open(path, wait=30)
    assert not isinstance(refused.value, DatabaseUnreachable)  # exit status 2
    assert f"has schema version {LATEST + 1}, newer than this bot knows" in str(refused.value)
    assert time.monotonic() - started < 5


async def test_past_the_wait_the_start_gives_up_for_now(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "umtali.sqlite3"
    await older_file(path)
    async with upgrading(path, 3.0):
        started = time.monotonic()
        with pytest.raises(DatabaseHeld) as held:
            await Database.open(path, wait=1.0)
        took = time.monotonic() - started
        assert 1.0 <= took < 2.5, took
    assert isinstance(held.value, DatabaseUnreachable)  # exit status 1
    assert str(held.value) == (
        f"the database {path} was still held by another process after 1 second of waiting (an "
        f"upgrade under way, or a copy of the bot stuck?): start the bot again later (a "
        f"service restarts it by itself).")
    assert len(said(caplog, WAITING)) == 1, caplog.text
    assert not said(caplog, "free again")
    db = await Database.open(path)  # the upgrade done, it opens as it was left
    assert await db.schema_version() == LATEST
    await db.close()


async def test_a_damaged_file_is_not_waited_for(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "umtali.sqlite3"
    path.write_bytes(os.urandom(16_384))
    started = time.monotonic()
    with pytest.raises(DatabaseUnusable) as refused:
        await Database.open(path, wait=30)
    assert not isinstance(refused.value, DatabaseUnreachable)
    assert "is damaged or not an SQLite database" in str(refused.value)
    assert time.monotonic() - started < 2
    assert not said(caplog, WAITING)


async def test_without_a_wait_a_held_file_is_refused_after_the_busy_timeout(
        tmp_path: Path) -> None:
    """The tools (backup, copy to PostgreSQL) ask for no wait: refused as before."""
    path = tmp_path / "umtali.sqlite3"
    await older_file(path)
    async with upgrading(path, 1.5):
        with pytest.raises(DatabaseUnusable) as refused:
            await Database.open(path)
    assert not isinstance(refused.value, DatabaseUnreachable)
    assert "is locked by another process (still after 0.3 s)" in str(refused.value)


# -- PostgreSQL: migrations serialised by an advisory lock ------------------------------------

@asynccontextmanager
async def pg_migrating(target: str, seconds: float, to: int | None = None
                       ) -> AsyncIterator[None]:
    """Another process holds the migration lock for ``seconds``, in a transaction that sets
    the schema to ``to`` (None: leaves it) when it ends."""
    other = await asyncpg.connect(target)
    tx = other.transaction()
    await tx.start()
    await other.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    if to is not None:
        await other.execute("UPDATE schema_version SET version = $1", to)

    async def commit() -> None:
        await asyncio.sleep(seconds)
        await tx.commit()
        await other.close()

    ending = asyncio.create_task(commit())
    try:
        yield
    finally:
        await ending


@ON_POSTGRESQL
async def test_postgresql_says_it_waits_for_another_migration_then_starts(
        empty_target: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with pg_migrating(empty_target, 1.5):
        db = await Database.open(empty_target, wait=10)
    try:
        assert await db.schema_version() == LATEST
        waiting = said(caplog, WAITING)
        assert len(waiting) == 1 and waiting[0].levelno == logging.WARNING, caplog.text
        assert "password" not in waiting[0].getMessage()
    finally:
        await db.close()


@ON_POSTGRESQL
async def test_postgresql_past_the_wait_gives_up_for_now(
        empty_target: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with pg_migrating(empty_target, 3.0):
        started = time.monotonic()
        with pytest.raises(DatabaseHeld, match="still held by another process after 1 s"):
            await Database.open(empty_target, wait=1.0)
        assert 1.0 <= time.monotonic() - started < 2.5
    assert len(said(caplog, WAITING)) == 1


@ON_POSTGRESQL
async def test_postgresql_a_schema_made_newer_while_waiting_is_refused(
        store_target: str) -> None:
    # The database at this bot's schema: a newer bot's upgrade under way is waited for too.
    async with pg_migrating(store_target, 1.0, to=LATEST + 1):
        with pytest.raises(DatabaseUnusable) as refused:
            await Database.open(store_target, wait=10)
    assert not isinstance(refused.value, DatabaseUnreachable)
    assert f"has schema version {LATEST + 1}, newer than this bot knows" in str(refused.value)
