"""A database file whose name holds characters that a glob reads as a pattern (``[``, ``*``,
``?``): the checks that look for other processes' lock files beside it find them all the same.
Before, ``umtali[1].sqlite3``'s locks went unseen: a process with another shard count started,
and the database was copied into PostgreSQL while a bot ran on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.copy_to_postgres import CopyError, copy
from data.process_name import NameTaken, hold_name, running_on
from data.store import Store

NAMES = ["umtali[1].sqlite3", "bot*.sqlite3", "which?.sqlite3"]


@pytest.mark.parametrize("name", NAMES)
async def test_a_running_bot_is_seen_whatever_its_database_is_named(
        tmp_path: Path, name: str) -> None:
    db = tmp_path / name
    await (await Store.open(db)).close()
    held = await hold_name(db, "shards-0", count=2, shards=(0,))
    try:
        assert running_on(db) is not None
        with pytest.raises(NameTaken, match="with UMTALI_SHARD_COUNT=2, this one with "
                                            "UMTALI_SHARD_COUNT=4"):
            await hold_name(db, "shards-1", count=4, shards=(1,))
        with pytest.raises(CopyError, match="is running on"):
            await copy(db, "postgresql://nobody@localhost/none")
    finally:
        await held.release()
    assert running_on(db) is None


async def test_a_bot_on_another_database_beside_it_is_not_taken_for_one_on_it(
        tmp_path: Path) -> None:
    mine, other = tmp_path / "bot?.sqlite3", tmp_path / "bot1.sqlite3"
    for db in (mine, other):
        await (await Store.open(db)).close()
    held = await hold_name(other, "auto", count=None, shards=None)
    try:
        assert running_on(mine) is None
        # Its own shard count: the other database's process runs another, and may.
        plain = await hold_name(mine, "main")
        await plain.release()
    finally:
        await held.release()
