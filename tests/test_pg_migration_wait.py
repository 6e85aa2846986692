"""Two processes started together on a PostgreSQL database that needs a migration: the second
waits for the first's migration to finish, however long it takes (an index built over a big
table), and then starts. Its wait for the migration lock failed after the 5 s lock timeout
meant for rows (``lock_timeout``): the second process did not start ("cannot be used")."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from data.db import BUSY_TIMEOUT
from data.migrations import MIGRATIONS
from data.pg_db import MIGRATION_LOCK, PgDatabase

ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
#: How long the other process's migration takes here (longer than the lock timeout).
MIGRATING = 7.0


@ON_POSTGRESQL
async def test_a_process_waits_for_another_ones_long_migration(empty_target: str) -> None:
    other = await asyncpg.connect(empty_target)
    try:
        # Another process is migrating: it holds the migration lock for a while.
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        opening = asyncio.create_task(PgDatabase.open(empty_target))
        await asyncio.sleep(MIGRATING)
        assert not opening.done(), opening.exception() if opening.done() else None
        await other.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        db = await asyncio.wait_for(opening, 30)
        try:
            assert await db.schema_version() == len(MIGRATIONS)
            # Its statements keep the lock timeout meant for rows.
            row = await db.fetchone("SHOW lock_timeout")
            assert row is not None and row[0] == f"{int(BUSY_TIMEOUT)}s"
        finally:
            await db.close()
    finally:
        await other.close()
