"""``python -m data.copy_to_postgres`` refusing a SQLite file it cannot use names that file,
not the snapshot it took of it in a temporary folder (gone by the time the sentence is read)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from data.copy_to_postgres import CopyError, copy
from data.db import Database
from data.migrations import MIGRATIONS
from data.process_name import hold_name
from data.store import Store
from tests.test_records import forfeited

ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


@ON_POSTGRESQL
async def test_a_file_from_a_newer_bot_is_refused_by_its_own_name(
        tmp_path: Path, empty_target: str) -> None:
    source = tmp_path / "umtali.sqlite3"
    await (await Store.open(source)).close()
    with closing(sqlite3.connect(source)) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(CopyError) as refused:
        await copy(source, empty_target)
    said = str(refused.value)
    assert said.startswith(f"the database {source} has schema version {len(MIGRATIONS) + 1}, "
                           "newer than this bot knows"), said
    assert "snapshot" not in said and "umtali-copy-" not in said, said


@ON_POSTGRESQL
async def test_hostile_names_are_copied_exactly(tmp_path: Path, empty_target: str) -> None:
    source = tmp_path / "umtali.sqlite3"
    names = ["Ёжик 'Пётр'", '"; DROP TABLE matches; --', "\u202eعلي\u202c **b** ||s||",
             "@everyone <@&1>", "Zoë 🃏\u200d🂡", "?1 $1 \\N \\."]
    store = await Store.open(source)
    try:
        for i, name in enumerate(names):
            await forfeited(store, (100 + i, name), (200 + i, name[::-1]), now=1000.0 + i)
        lite = await store.records.leaderboard(10, 1)
    finally:
        await store.close()
    await copy(source, empty_target)
    pg = await Store.open(empty_target)
    try:
        assert await pg.records.leaderboard(10, 1) == lite
        rows = await pg.db.fetchall("SELECT player0_name, player1_name FROM matches ORDER BY id")
        assert [(r[0], r[1]) for r in rows] == [(n, n[::-1]) for n in names]
    finally:
        await pg.close()


@ON_POSTGRESQL
async def test_a_database_a_bot_runs_on_is_refused_before_it_is_migrated(
        tmp_path: Path, empty_target: str) -> None:
    """An older bot runs on the PostgreSQL database; a newer copy tool pointed at it is refused
    without migrating it first: migrated under it, the running bot could not start again
    ("newer than this bot knows")."""
    source = tmp_path / "umtali.sqlite3"
    await (await Store.open(source)).close()
    older = len(MIGRATIONS) - 1
    running = await Database.open(empty_target, schema=older)
    bot = await hold_name(empty_target, "main")
    try:
        with pytest.raises(CopyError, match=r"a bot process \(main\) is running on"):
            await copy(source, empty_target)
        assert await running.schema_version() == older
    finally:
        await bot.release()
        await running.close()
