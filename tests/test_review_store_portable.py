"""The same calls on both backends, at their edges: a session ending exactly at midnight UTC on
the first of the month, Discord ids as large as they come through ratings and seasons (their
advisory-lock keys included), names in other scripts on the boards; and PostgreSQL's
connections cut by the server, the next calls going through on new ones."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from cogs.umtali.ids import MAX_ID
from data.models import GuildSettings
from data.records import GLOBAL
from data.seasons import season_end
from data.store import Store
from tests.test_records import GUILD, forfeited

MIDNIGHT = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_a_session_ending_at_midnight_utc_counts_in_the_new_month(store: Store) -> None:
    await store.save_guild_settings(GuildSettings(GUILD, seasons="monthly"))
    assert season_end("2026-12") == MIDNIGHT
    await forfeited(store, (1, "Ada"), (2, "Ben"), now=MIDNIGHT - 0.001)
    await forfeited(store, (3, "Cy"), (4, "Di"), now=MIDNIGHT)
    december = await store.seasons.board(GUILD, "2026-12", 1)
    january = await store.seasons.board(GUILD, "2027-01", 1)
    assert {r.user_id for r in december.rows} == {1, 2}
    assert {r.user_id for r in january.rows} == {3, 4}
    assert [(s.season, s.ended_at) for s in await store.seasons.of(GUILD)] == [
        ("2027-01", None), ("2026-12", MIDNIGHT)]


async def test_the_largest_ids_are_rated_and_seasoned_exactly(store: Store) -> None:
    guild, ada, ben = MAX_ID, MAX_ID - 1, MAX_ID - 2
    await store.save_guild_settings(GuildSettings(guild, seasons="monthly"))
    await forfeited(store, (ada, "Ada"), (ben, "Ben"), guild=guild, now=MIDNIGHT + 60)
    board = await store.records.leaderboard(guild, 1)
    assert [r.user_id for r in board.rows] == [ada, ben]
    assert [r.user_id for r in (await store.records.leaderboard(GLOBAL, 1)).rows] == [ada, ben]
    assert [r.user_id for r in (await store.seasons.board(guild, "2027-01", 1)).rows] == [
        ada, ben]
    rating = (await store.records.record(guild, ben)).rating
    assert rating is not None and (rating.rank, rating.players) == (2, 2)
    assert await store.seasons.end_due(MIDNIGHT + 40 * 86400) != []


async def test_names_in_other_scripts_read_back_whole_and_in_the_same_order(
        store: Store) -> None:
    names = ["Ёжик Пётр", "Юлия", "\u202eعلي\u202c", "李雷", "Zoë 🃏"]
    for i, name in enumerate(names):
        await forfeited(store, (100 + i, name), (200 + i, f"Проигравший {i}"),
                        now=1000.0 + i)
    board = await store.records.leaderboard(GUILD, 1)
    # Equal ratings: listed by id, on both backends (never by name, whose order each
    # collates), and sharing their place (tests/test_ranks.py).
    assert [r.name for r in board.rows[:5]] == names
    assert [r.rank for r in board.rows] == [1] * 5 + [6] * 5


ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


@ON_POSTGRESQL
async def test_connections_cut_by_the_server_are_replaced(store_target: str) -> None:
    store = await Store.open(store_target)
    admin = await asyncpg.connect(store_target)
    try:
        for i in range(4):
            await store.set_meta(f"k{i}", "v")
        cut = await admin.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
            "application_name = 'umtali' AND datname = current_database()")
        assert cut >= 1
        # The server's word that it ended them arrives at once (a restart, a failover): a
        # moment later, before the next click, the pool knows them closed.
        await asyncio.sleep(0.2)
        await store.set_meta("after", "1")
        assert await store.get_meta("after") == "1"
        await forfeited(store, (1, "Ada"), (2, "Ben"))
        assert len((await store.records.leaderboard(GUILD, 1)).rows) == 2
    finally:
        await admin.close()
        await store.close()
