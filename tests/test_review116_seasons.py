"""review116's findings on seasons, on both backends: a season in play when seasons are turned
off keeps counting to its end (as the manager is told), a result counted late opens no season
of a month gone by, and reads leave ending a season to its time past ``SKEW``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import records
from data.db import Database
from data.models import PlayerStats
from data.season_queries import SEASON_BOARD
from data.seasons import _BOARD_WHERE, _COUNT, SKEW, season_end
from data.store import Store
from tests.test_leases_index import _plan
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at, seasons_on


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def sessions_in(store: Store, season: str) -> dict[int, int]:
    """Each player's rated sessions in ``season``."""
    return {r.user_id: r.sessions for r in (await store.seasons.board(GUILD, season, 1)).rows}


async def test_seasons_turned_off_mid_season_count_until_its_end(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await seasons_on(store, "off")
    # As the manager is told: December still runs to its end, counting what is played in it.
    await forfeited(store, ADA, CY, now=at(2026, 12, 20))
    assert await sessions_in(store, "2026-12") == {ADA[0]: 2, BEN[0]: 1, CY[0]: 1}
    # Past its end, the first session counted ends it, and no season follows.
    await forfeited(store, BEN, CY, now=at(2027, 1, 3))
    assert await sessions_in(store, "2026-12") == {ADA[0]: 2, BEN[0]: 1, CY[0]: 1}
    assert [(s.season, s.ended_at is not None) for s in await store.seasons.of(GUILD)] == \
        [("2026-12", True)]
    assert await store.seasons.running(GUILD) is None


async def test_a_result_counted_late_opens_no_season_of_a_month_gone_by(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seasons on from January, but January's only result failed its count (a bug: it waits
    for the next start) and no session opened a season. Counted in March, it opens no January
    season (a summary for a month the server ran no season in): it is rated into none, and
    March's season opens with the first session of March."""
    await seasons_on(store, "monthly")

    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    monkeypatch.setattr(records, "seat_stats", broken)
    await forfeited(store, ADA, BEN, now=at(2027, 1, 20))
    monkeypatch.undo()
    assert await store.count_backlog(now=at(2027, 3, 3)) == 1  # the next start, in March
    assert await store.seasons.of(GUILD) == []
    assert {r.user_id for r in (await store.records.leaderboard(GUILD, 1)).rows} == \
        {ADA[0], BEN[0]}  # all time counts it all the same
    await forfeited(store, BEN, CY, now=at(2027, 3, 5))
    assert [s.season for s in await store.seasons.of(GUILD)] == ["2027-03"]
    assert await sessions_in(store, "2027-03") == {BEN[0]: 1, CY[0]: 1}


async def test_a_result_counted_late_in_its_own_season_is_rated_into_it(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same within the month: the season of the clock is the result's, and opens."""
    await seasons_on(store, "monthly")

    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    monkeypatch.setattr(records, "seat_stats", broken)
    await forfeited(store, ADA, BEN, now=at(2027, 1, 10))
    monkeypatch.undo()
    assert await store.count_backlog(now=at(2027, 1, 12)) == 1
    assert await sessions_in(store, "2027-01") == {ADA[0]: 1, BEN[0]: 1}


async def test_a_board_read_just_past_the_turn_leaves_the_season_to_the_tick(
        store: Store) -> None:
    """A leaderboard read 5 s past the month's turn (``chosen_board`` asks for the current
    season) does not end December before ``SKEW``: a session of December's last seconds, by
    the clock of a process a little behind, is still rated into it (review52's race)."""
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    turn = season_end("2026-12")
    assert await store.seasons.current(GUILD, "monthly", turn + 5) == "2026-12"
    await forfeited(store, CY, BEN, now=turn - 2)
    assert await sessions_in(store, "2026-12") == {ADA[0]: 1, BEN[0]: 2, CY[0]: 1}
    # Past SKEW, the read ends it and opens the next, as the tick would.
    assert await store.seasons.current(GUILD, "monthly", turn + SKEW) == "2027-01"
    assert [(s.season, s.ended_at is None) for s in await store.seasons.of(GUILD)] == \
        [("2027-01", True), ("2026-12", False)]


async def test_a_seasons_players_are_read_through_the_index_of_those_who_played(
        store: Store) -> None:
    """A season's board, its count and its places read the index of the players who played
    in it (migration 28), not every rating carried into it (every player ever rated)."""
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    for sql, params in (
            (_COUNT, (GUILD, "2026-12")),
            (f"SELECT user_id, name, ordinal, sessions_won, sessions_lost {_BOARD_WHERE} "
             "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?", (GUILD, "2026-12", 10, 0)),
            (SEASON_BOARD.above, (GUILD, "2026-12", 1.0))):
        assert "season_played" in await _plan(store, sql, params), sql


async def test_a_seasons_players_are_kept_as_its_board_counts_them(store: Store) -> None:
    """``seasons.players`` (migration 28) counts a player once, as they first play in the
    season; a rating carried into it alone counts for nothing, as on its board."""
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await forfeited(store, BEN, ADA, now=at(2026, 12, 6))
    await forfeited(store, CY, ADA, now=at(2026, 12, 7))
    assert len(await store.seasons.end_due(season_end("2026-12") + SKEW)) == 1
    await forfeited(store, CY, BEN, now=at(2027, 1, 5))
    kept = [(s.season, s.players) for s in await store.seasons.of(GUILD)]
    assert kept == [("2027-01", 2), ("2026-12", 3)]
    for season, players in kept:
        assert (await store.seasons.board(GUILD, season, 1)).players == players


async def test_migration_28_counts_the_players_of_the_seasons_kept_before(
        empty_target: str | Path) -> None:
    db = await Database.open(empty_target, schema=27)
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO seasons (guild_id, season, started_at) VALUES "
                             "(?, '2026-11', 1.0), (?, '2026-12', 2.0)", (GUILD, GUILD))
            await tx.execute(
                "INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, "
                "ordinal, sessions_won, sessions_lost) VALUES (?, '2026-11', 1, 'a', 25, 8, 1, "
                "1, 0), (?, '2026-11', 2, 'b', 25, 8, 1, 0, 1), (?, '2026-12', 1, 'a', 25, 8, "
                "1, 0, 0), (?, '2026-12', 2, 'b', 25, 8, 1, 0, 2)", (GUILD,) * 4)
    finally:
        await db.close()
    store = await Store.open(empty_target)
    try:
        assert [(s.season, s.players) for s in await store.seasons.of(GUILD)] == [
            ("2026-12", 1), ("2026-11", 2)]
    finally:
        await store.close()
