"""Seasons when a server changes its cadence or turns seasons off, on both backends: a season
runs to the end of its own month or quarter, a new cadence applies from the next season, no
session is ever rated into an ended season, and a server with seasons off gets no new ones."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import records
from data.models import PlayerStats
from data.ratings import MODEL
from data.seasons import season_end, soft_reset
from data.store import Store
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at, seasons_on


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def listed(store: Store) -> list[tuple[str, bool, int]]:
    """(season, still open, players), newest first."""
    return [(s.season, s.ended_at is None, s.players) for s in await store.seasons.of(GUILD)]


async def mu(store: Store, season: str, user_id: int) -> float:
    row = await store.db.fetchone(
        "SELECT mu FROM season_ratings WHERE guild_id = ? AND season = ? AND user_id = ?",
        (GUILD, season, user_id))
    assert row is not None
    return float(row[0])


def test_a_season_ends_where_the_next_of_its_kind_begins() -> None:
    assert season_end("2026-12") == at(2027, 1, 1) - 12 * 3600
    assert season_end("2026-11") == at(2026, 12, 1) - 12 * 3600
    assert season_end("2026-Q4") == at(2027, 1, 1) - 12 * 3600
    assert season_end("2027-Q1") == at(2027, 4, 1) - 12 * 3600


async def test_back_and_forth_within_a_month_keeps_one_open_season(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await seasons_on(store, "quarterly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 10))
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, CY, now=at(2026, 12, 15))
    # December runs to its end: every session is in it, and it is open.
    assert await listed(store) == [("2026-12", True, 3)]
    assert (await store.seasons.board(GUILD, "2026-12", 1)).rows[0].sessions == 3
    [end] = await store.seasons.end_due(at(2027, 1, 1))
    assert (end.season, end.next_season) == ("2026-12", "2027-01")
    await forfeited(store, BEN, CY, now=at(2027, 1, 5))
    assert await listed(store) == [("2027-01", True, 2), ("2026-12", False, 3)]
    assert 3 in {r.user_id for r in (await store.seasons.board(GUILD, "2027-01", 1)).rows}


async def test_a_new_cadence_applies_from_the_next_season(store: Store) -> None:
    await seasons_on(store, "quarterly")
    await forfeited(store, ADA, BEN, now=at(2026, 10, 5))
    await seasons_on(store, "monthly")  # in the middle of the fourth quarter
    await forfeited(store, ADA, BEN, now=at(2026, 11, 20))
    assert await store.seasons.end_due(at(2026, 12, 1)) == []
    assert await store.seasons.current(GUILD, "monthly", at(2026, 12, 2)) == "2026-Q4"
    [end] = await store.seasons.end_due(at(2027, 1, 1))
    assert (end.season, end.next_season) == ("2026-Q4", "2027-01")
    await seasons_on(store, "quarterly")
    await forfeited(store, BEN, ADA, now=at(2027, 1, 20))
    [end] = await store.seasons.end_due(at(2027, 2, 1))
    assert (end.season, end.next_season) == ("2027-01", "2027-Q1")
    assert await store.seasons.end_due(at(2027, 3, 31)) == []
    [end] = await store.seasons.end_due(at(2027, 4, 1))
    assert (end.season, end.next_season) == ("2027-Q1", "2027-Q2")
    # Each player's rating was carried from season to season, halfway back each time.
    carried = soft_reset(await mu(store, "2027-01", ADA[0]), MODEL.rating().sigma)
    assert await mu(store, "2027-Q1", ADA[0]) == pytest.approx(carried.mu)


async def test_a_server_that_turns_seasons_off_gets_no_new_ones(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await seasons_on(store, "off")
    # Counted in December still: it runs to its end, as the manager is told (review116).
    await forfeited(store, ADA, BEN, now=at(2026, 12, 20))
    assert await store.seasons.end_due(at(2026, 12, 31)) == []
    [end] = await store.seasons.end_due(at(2027, 1, 1))
    assert (end.season, end.next_season) == ("2026-12", None)
    for month in range(2, 7):
        assert await store.seasons.end_due(at(2027, month, 1)) == []
    assert await listed(store) == [("2026-12", False, 2)]
    assert (await store.seasons.board(GUILD, "2026-12", 1)).rows[0].sessions == 2
    count = await store.db.fetchone("SELECT COUNT(*) FROM season_ratings")
    assert count is not None and count[0] == 2
    assert await store.seasons.current(GUILD, "off", at(2027, 3)) is None
    december = await mu(store, "2026-12", ADA[0])
    # Turned on again: a new season, from the last one's ratings reset once (not six times).
    await seasons_on(store, "monthly")
    await forfeited(store, CY, BEN, now=at(2027, 6, 10))
    assert await listed(store) == [("2027-06", True, 2), ("2026-12", False, 2)]
    assert await mu(store, "2027-06", ADA[0]) == pytest.approx(soft_reset(december, 1.0).mu)


async def test_off_and_on_again_within_the_month_resumes_its_season(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await seasons_on(store, "off")
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, CY, now=at(2026, 12, 20))
    assert await listed(store) == [("2026-12", True, 3)]


async def test_a_session_counted_late_is_never_rated_into_an_ended_season(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await seasons_on(store, "off")
    assert len(await store.seasons.end_due(at(2027, 1, 1))) == 1
    await seasons_on(store, "monthly")

    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    # A result of December left uncounted, then counted in January by the sweep.
    monkeypatch.setattr(records, "seat_stats", broken)
    await forfeited(store, CY, ADA, now=at(2026, 12, 31))
    monkeypatch.undo()
    december = (await store.seasons.board(GUILD, "2026-12", 1)).rows
    assert await store.sweep_uncounted() == 1
    assert (await store.seasons.board(GUILD, "2026-12", 1)).rows == december
    assert await listed(store) == [("2026-12", False, 2)]
    await forfeited(store, BEN, CY, now=at(2027, 1, 10))
    assert await listed(store) == [("2027-01", True, 2), ("2026-12", False, 2)]


async def test_a_session_counted_after_its_season_ended_is_not_rated_into_the_next(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seasons on all along: a December result left uncounted (its count failed, so the
    sweeps pass it by until the next start) is counted in January, after December ended and
    January opened. It was not played in January: it is rated into no season."""
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))

    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    monkeypatch.setattr(records, "seat_stats", broken)
    await forfeited(store, CY, ADA, now=at(2026, 12, 31))
    monkeypatch.undo()
    assert len(await store.seasons.end_due(at(2027, 1, 1))) == 1
    await forfeited(store, BEN, ADA, now=at(2027, 1, 3))
    december = await store.seasons.board(GUILD, "2026-12", 1)
    january = await store.seasons.board(GUILD, "2027-01", 1)
    assert await store.count_backlog() == 1  # the next start
    assert (await store.seasons.board(GUILD, "2026-12", 1)) == december
    assert (await store.seasons.board(GUILD, "2027-01", 1)) == january
    assert await listed(store) == [("2027-01", True, 2), ("2026-12", False, 2)]
    # All time counts it all the same.
    assert {r.user_id for r in (await store.records.leaderboard(GUILD, 1)).rows} == {1, 2, 3}
