"""fix139: a result counted late opens the season of its end only if the cadence in force
when it ended made that season, on both backends.

fix133 let a result counted within ``seasons.LATE`` past its period's end open the season of
its end, reading the cadence as it is at the count: seasons turned on just after the turn
opened (and the tick summed up) a season for a month the server never had seasons in. The
server now keeps since when its cadence is what it is (``guild_settings.seasons_since``,
migration 33)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.db import Database
from data.migrations import MIGRATIONS
from data.seasons import SKEW, season_end
from data.store import Store
from tests.test_fix133_seasons import TURN, _uncounted_id, season_of_result, seasons, uncounted
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def cadence(store: Store, seasons: str, now: float) -> None:
    """A manager sets the server's cadence at ``now`` (``/umtali-admin settings``)."""
    await store.change_guild_settings(GUILD, {"seasons": seasons, "season_channel_id": 77},
                                      now=now)


async def since(store: Store) -> float | None:
    row = await store.db.fetchone(
        "SELECT seasons_since FROM guild_settings WHERE guild_id = ?", (GUILD,))
    assert row is not None
    return None if row["seasons_since"] is None else float(row["seasons_since"])


@pytest.mark.parametrize("chosen_before", [False, True])
async def test_seasons_turned_on_after_the_turn_open_no_season_for_the_month_before(
        store: Store, chosen_before: bool) -> None:
    """review122 D2: seasons off all December (never chosen, or chosen off), a session of
    its last half-second whose count failed, seasons turned on just past the turn, the
    tick's sweep counts it: rated into no season (none opened for December, so none summed
    up), as before fix133."""
    if chosen_before:
        await cadence(store, "off", at(2026, 11, 20))
    match_id = await _uncounted_id(store, TURN - 0.5)
    await cadence(store, "monthly", TURN + 10)
    assert await store.count_backlog(now=TURN + 30) == 1
    assert await season_of_result(store, match_id) is None
    assert await seasons(store) == []
    assert await store.seasons.end_due(TURN + 60) == []
    # January's first session opens January, as it would have without the late one.
    await forfeited(store, CY, BEN, now=TURN + 3600)
    assert await seasons(store) == [("2027-01", True, {BEN[0]: 1, CY[0]: 1})]


async def test_seasons_on_within_the_month_the_last_second_still_opens_it(
        store: Store) -> None:
    """fix133 stands when the cadence was in force at the session's end: turned on in
    December, nobody counted since, the last second's result opens December."""
    await cadence(store, "monthly", at(2026, 12, 15))
    match_id = await _uncounted_id(store, TURN - 0.5)
    assert await store.count_backlog(now=TURN + 30) == 1
    assert await season_of_result(store, match_id) == "2026-12"
    [end] = await store.seasons.end_due(TURN + 60)
    assert (end.season, end.next_season) == ("2026-12", "2027-01")


async def test_the_cadence_changed_past_the_turn_opens_no_season_of_the_new_kind(
        store: Store) -> None:
    """Monthly in December (turned on mid-month, nobody counted), quarterly past the turn:
    the quarter ``2026-Q4`` was never the server's season, and is not opened for the late
    result. What the cadence was before the change is not kept: rated into none."""
    await cadence(store, "monthly", at(2026, 12, 15))
    match_id = await _uncounted_id(store, TURN - 0.5)
    await cadence(store, "quarterly", TURN + 10)
    assert await store.count_backlog(now=TURN + 30) == 1
    assert await season_of_result(store, match_id) is None
    assert await seasons(store) == []


@pytest.mark.parametrize("then", ["quarterly", "off"])
async def test_a_season_in_play_still_takes_its_last_second_whatever_the_cadence_now(
        store: Store, then: str) -> None:
    """December open (someone counted in it): a change of cadence past the turn (quarterly,
    or seasons off) leaves the session of its last second rated into December, as before."""
    await cadence(store, "monthly", at(2026, 12, 1))
    await forfeited(store, CY, BEN, now=at(2026, 12, 5))
    match_id = await _uncounted_id(store, TURN - 0.5)
    await cadence(store, then, TURN + 5)
    assert await store.count_backlog(now=TURN + 8) == 1
    assert await season_of_result(store, match_id) == "2026-12"
    [end] = await store.seasons.end_due(TURN + SKEW)
    assert (end.season, end.next_season) == ("2026-12",
                                             "2027-Q1" if then == "quarterly" else None)


async def test_since_changes_with_the_cadence_only(store: Store) -> None:
    await store.change_guild_settings(GUILD, {"language": "ru"}, now=at(2026, 12, 1))
    assert await since(store) is None  # never chosen: off since long ago
    await cadence(store, "monthly", at(2026, 12, 2))
    assert await since(store) == at(2026, 12, 2)
    await cadence(store, "monthly", at(2026, 12, 3))  # chosen again: no change
    await store.change_guild_settings(GUILD, {"language": "en"}, now=at(2026, 12, 4))
    assert await since(store) == at(2026, 12, 2)
    await cadence(store, "off", at(2026, 12, 5))
    assert await since(store) == at(2026, 12, 5)


async def test_a_server_from_before_migration_33_keeps_its_cadence_from_long_ago(
        empty_target: str | Path) -> None:
    """Rows from before the column have no ``seasons_since``: their cadence counts as in
    force long ago (fix133's rule for them, as before)."""
    db = await Database.open(empty_target, schema=len(MIGRATIONS) - 1)
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, seasons) "
                             "VALUES (?, 'monthly')", (GUILD,))
    finally:
        await db.close()
    store = await Store.open(empty_target)
    try:
        assert await since(store) is None
        await uncounted(store, TURN - 0.5)
        assert await store.count_backlog(now=TURN + 30) == 1
        assert await seasons(store) == [("2026-12", True, {ADA[0]: 1, BEN[0]: 1})]
        assert season_end("2026-12") == TURN
    finally:
        await store.close()
