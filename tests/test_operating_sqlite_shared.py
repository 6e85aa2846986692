"""Processes sharing one SQLite file (docs/processes.md): started together on a file an older
bot wrote, each migrates it once between them, and neither fails to start."""

from __future__ import annotations

import asyncio
from pathlib import Path

from data.migrations import MIGRATIONS
from data.sqlite_db import SqliteDatabase
from tests.test_migrations import old_database


async def test_two_processes_starting_together_migrate_an_old_file_once(
        tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    await old_database(db, 1)
    # Both read schema 1 before either migrates (two connections, as two processes have).
    opened = await asyncio.gather(SqliteDatabase.open(db), SqliteDatabase.open(db),
                                  return_exceptions=True)
    both = [d for d in opened if isinstance(d, SqliteDatabase)]
    try:
        assert len(both) == 2, opened  # was: "cannot be opened (duplicate column name ...)"
        assert [await d.schema_version() for d in both] == [len(MIGRATIONS)] * 2
    finally:
        for d in both:
            await d.close()


async def test_a_migration_another_process_made_meanwhile_is_not_made_again(
        tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "umtali.sqlite3")
    try:
        latest = len(MIGRATIONS)
        assert await db._migrate([(latest, db.statements(latest))]) == []
        assert await db.schema_version() == latest
    finally:
        await db.close()
