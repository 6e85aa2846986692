"""``copy-to-postgres`` into a PostgreSQL database a bot process is running on: refused, as a
SQLite file a bot runs on is refused. ``--replace`` would empty the tables under the running bot
(its matches in memory then stand for other matches under the same ids, its timers forfeiting
them); even into an empty database, the bot's own writes would meet the copy's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.copy_to_postgres import CopyError, copy
from data.process_name import hold_name
from data.store import Store
from tests.test_copy_to_postgres import ON_POSTGRESQL, _full_sqlite


@ON_POSTGRESQL
async def test_a_postgresql_database_a_bot_runs_on_is_not_copied_into(
        tmp_path: Path, store_target: str) -> None:
    source = tmp_path / "umtali.sqlite3"
    await _full_sqlite(source)
    # A bot runs on the PostgreSQL database, a match in play.
    store = await Store.open(store_target)
    bot = await hold_name(store_target, "shards-0", count=2, shards=(0,))
    try:
        match_id = await store.create_match(
            guild_id=1, channel_id=2, players=((7, "Ann"), (8, "Bo")), variant="english",
            turn_timer=300, state="{}", deadline=9.5, owner="shards-0", lease_until=1e12)
        for replace in (True, False):
            with pytest.raises(CopyError, match=r"a bot process \(shards-0\) is running on "
                                                r"postgresql://.*: stop it first"):
                await copy(source, store_target, replace=replace)
        # Its match is as it was.
        found = await store.match(match_id)
        assert found is not None and found.player_ids == (7, 8)
    finally:
        await bot.release()
        await store.close()
    # Stopped, it may be replaced.
    copied = await copy(source, store_target, replace=True)
    with sqlite3.connect(source) as lite:
        [(matches,)] = lite.execute("SELECT COUNT(*) FROM matches").fetchall()
    lite.close()
    assert copied.counts["matches"] == matches
