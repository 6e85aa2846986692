"""Two processes counting, at once, two sessions of the same two people, seated the other way
round on two servers (PostgreSQL): both counts go through, one after the other. Each count
upserts the people's stats rows seat by seat; without taking the players' lock first, the two
took the shared all-servers rows in opposite orders and PostgreSQL broke the deadlock by failing
one ending (a player's last move refused with an error, or a forfeit put off)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from cogs.umtali.saved import finish_of
from data.store import Store
from tests.test_records import forfeited, state
from umtali.rules import RuleSet
from umtali.session import Session

ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
ADA, BEN = (5, "Ada"), (9, "Ben")


async def _waiting(url: str, n: int) -> None:
    """Until ``n`` of the bot's connections wait for a lock."""
    conn = await asyncpg.connect(url)
    try:
        for _ in range(500):
            waiting = await conn.fetchval(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'umtali' "
                "AND wait_event_type = 'Lock'")
            if waiting >= n:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"never {n} waiting")
    finally:
        await conn.close()


async def _resign(store: Store, match_id: int) -> None:
    session = Session(RuleSet.english(), 7)
    session.resign(1, "resigned")
    await store.finish_match(match_id=match_id, version=0, state=state(session),
                             finish=finish_of(session), now=2000.0)


@ON_POSTGRESQL
async def test_two_counts_of_the_same_two_people_seated_apart_both_go_through(
        stores: tuple[Store, Store], store_target: str) -> None:
    one, two = stores
    await forfeited(one, ADA, BEN, guild=1)  # their stats rows exist
    first = await one.create_match(guild_id=1, channel_id=1, players=(ADA, BEN),
                                   variant="english", turn_timer=0, state="{}", deadline=None)
    second = await two.create_match(guild_id=2, channel_id=2, players=(BEN, ADA),
                                    variant="english", turn_timer=0, state="{}", deadline=None)
    # Another transaction holds Ben's row of the first server for a moment.
    holder = await asyncpg.connect(store_target)
    try:
        tx = holder.transaction()
        await tx.start()
        await holder.execute("SELECT * FROM player_stats WHERE scope = 1 AND user_id = 9 "
                             "FOR UPDATE")
        ending = [asyncio.create_task(_resign(one, first))]
        await _waiting(store_target, 1)
        ending.append(asyncio.create_task(_resign(two, second)))
        await _waiting(store_target, 2)
        await tx.rollback()
        await asyncio.gather(*ending)
    finally:
        await holder.close()
    counted = await one.db.fetchall(
        "SELECT match_id FROM session_results WHERE recorded = 1 ORDER BY match_id")
    assert [r["match_id"] for r in counted] == [first - 1, first, second]
