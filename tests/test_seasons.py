"""Seasons, on both backends: boundaries from an injected clock, soft resets, exactly-once
ends, ratings that keep moving, and ratings before and after each session."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.models import GuildSettings
from data.ratings import MODEL
from data.seasons import season_of, season_start, soft_reset
from data.store import Store
from tests.test_records import GUILD, forfeited

ADA, BEN, CY = (1, "Ada"), (2, "Ben"), (3, "Cy")


def at(year: int, month: int, day: int = 15) -> float:
    return dt.datetime(year, month, day, 12, tzinfo=dt.UTC).timestamp()


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def seasons_on(store: Store, cadence: str = "monthly", channel: int | None = 77) -> None:
    await store.save_guild_settings(GuildSettings(GUILD, seasons=cadence,
                                                  season_channel_id=channel))


def test_season_names_and_starts() -> None:
    assert season_of(at(2026, 12, 31), "monthly") == "2026-12"
    assert season_of(at(2026, 11), "quarterly") == "2026-Q4"
    assert season_of(at(2027, 1, 1), "quarterly") == "2027-Q1"
    assert season_of(at(2026, 11), "off") is None
    assert season_start("2026-Q4") == dt.datetime(2026, 10, 1, tzinfo=dt.UTC).timestamp()
    assert season_start("2027-02") == dt.datetime(2027, 2, 1, tzinfo=dt.UTC).timestamp()
    # The last second of a month is still in it.
    assert season_of(season_start("2027-01") - 1, "monthly") == "2026-12"


def test_a_soft_reset_moves_halfway_back_and_is_less_sure() -> None:
    start = MODEL.rating()
    strong = soft_reset(start.mu + 10, 2.0)
    assert strong.mu == pytest.approx(start.mu + 5)
    assert 2.0 < strong.sigma <= start.sigma
    weak = soft_reset(start.mu - 6, 3.0)
    assert weak.mu == pytest.approx(start.mu - 3)
    assert soft_reset(start.mu, start.sigma).mu == pytest.approx(start.mu)


async def test_sessions_move_the_season_board_beside_the_all_time_one(store: Store) -> None:
    await seasons_on(store)
    await forfeited(store, ADA, BEN, now=at(2026, 12))
    await forfeited(store, ADA, CY, now=at(2026, 12, 20))
    board = await store.seasons.board(GUILD, "2026-12", 1)
    assert [(r.name, r.sessions_won, r.sessions) for r in board.rows] in (
        [("Ada", 2, 2), ("Ben", 0, 1), ("Cy", 0, 1)], [("Ada", 2, 2), ("Cy", 0, 1), ("Ben", 0, 1)])
    assert board.players == 3
    all_time = await store.records.leaderboard(GUILD, 1)
    assert {r.user_id for r in all_time.rows} == {1, 2, 3}


async def test_a_season_ends_once_with_a_soft_reset_and_stays_readable(store: Store) -> None:
    await seasons_on(store)
    await forfeited(store, ADA, BEN, now=at(2026, 12))
    await forfeited(store, ADA, BEN, now=at(2026, 12, 16))
    december = await store.seasons.board(GUILD, "2026-12", 1)
    ada_december = december.rows[0]
    assert ada_december.user_id == 1

    ends = await store.seasons.end_due(at(2027, 1, 1))
    assert [(e.season, e.next_season) for e in ends] == [("2026-12", "2027-01")]
    # A second tick, or a second process, finds nothing more to end.
    assert await store.seasons.end_due(at(2027, 1, 2)) == []

    # Past seasons stay as they ended; the new one starts empty on the board...
    assert (await store.seasons.board(GUILD, "2026-12", 1)) == december
    assert (await store.seasons.board(GUILD, "2027-01", 1)).players == 0
    # ...with each player's rating carried halfway back.
    await forfeited(store, BEN, CY, now=at(2027, 1, 5))
    await forfeited(store, ADA, CY, now=at(2027, 1, 6))
    january = {r.user_id: r for r in (await store.seasons.board(GUILD, "2027-01", 1)).rows}
    assert 0 < january[1].rating < ada_december.rating
    listed = await store.seasons.of(GUILD)
    assert [(s.season, s.ended_at is not None, s.players) for s in listed] == [
        ("2027-01", False, 3), ("2026-12", True, 2)]


async def test_a_session_counted_after_the_boundary_ends_the_season_first(
        store: Store) -> None:
    """No tick ran (the bot was down over the new year): the first session of January ends
    December itself, once, and counts into January."""
    await seasons_on(store)
    await forfeited(store, ADA, BEN, now=at(2026, 12))
    await forfeited(store, BEN, ADA, now=at(2027, 1, 3))
    seasons = await store.seasons.of(GUILD)
    assert [(s.season, s.ended_at is not None) for s in seasons] == [
        ("2027-01", False), ("2026-12", True)]
    assert await store.seasons.end_due(at(2027, 1, 4)) == []
    assert (await store.seasons.board(GUILD, "2026-12", 1)).rows[0].user_id == 1
    assert (await store.seasons.board(GUILD, "2027-01", 1)).rows[0].user_id == 2


async def test_season_ends_survive_a_restart_exactly_once(store_target: str | Path) -> None:
    path = store_target
    first = await Store.open(path)
    await seasons_on(first)
    await forfeited(first, ADA, BEN, now=at(2026, 12))
    assert len(await first.seasons.end_due(at(2027, 1, 1))) == 1
    assert await first.seasons.unannounced() == [(GUILD, "2026-12", 77)]
    await first.close()  # the bot stops before posting the summary

    second = await Store.open(path)
    assert await second.seasons.end_due(at(2027, 1, 1)) == []
    assert await second.seasons.unannounced() == [(GUILD, "2026-12", 77)]
    assert await second.seasons.mark_announced(GUILD, "2026-12")
    assert not await second.seasons.mark_announced(GUILD, "2026-12")
    assert await second.seasons.unannounced() == []
    await second.close()


async def test_a_summary_claimed_by_a_process_that_stopped_is_posted_after_all(
        store_target: str | Path) -> None:
    first = await Store.open(store_target)
    await seasons_on(first)
    await forfeited(first, ADA, BEN, now=at(2026, 12))
    await first.seasons.end_due(at(2027, 1, 1))
    now = at(2027, 1, 1)
    assert await first.seasons.claim_summary(GUILD, "2026-12", "main", now, now + 300)
    # Held while it is posted: no other tick or process takes it.
    assert not await first.seasons.claim_summary(GUILD, "2026-12", "main", now, now + 300)
    assert not await first.seasons.claim_summary(GUILD, "2026-12", "b", now + 299, now + 599)
    await first.close()  # the process stops before the summary is posted

    second = await Store.open(store_target)
    assert await second.seasons.unannounced() == [(GUILD, "2026-12", 77)]
    # Its restart takes its own claim back at once; another process's stays held.
    await second.seasons.unclaim_summaries("b")
    assert not await second.seasons.claim_summary(GUILD, "2026-12", "b", now + 1, now + 301)
    await second.seasons.unclaim_summaries("main")
    assert await second.seasons.claim_summary(GUILD, "2026-12", "main", now + 1, now + 301)
    # Never restarted under that name, its claim runs out and another process posts it.
    assert await second.seasons.claim_summary(GUILD, "2026-12", "b", now + 301, now + 601)
    assert await second.seasons.mark_announced(GUILD, "2026-12")
    assert await second.seasons.unannounced() == []
    assert not await second.seasons.claim_summary(GUILD, "2026-12", "c", now + 999, now + 1299)
    await second.close()


async def test_seasons_off_keeps_no_season(store: Store) -> None:
    await forfeited(store, ADA, BEN, now=at(2026, 12))
    assert await store.seasons.of(GUILD) == []
    assert await store.seasons.end_due(at(2027, 3, 1)) == []


async def test_quarterly_seasons(store: Store) -> None:
    await seasons_on(store, "quarterly")
    await forfeited(store, ADA, BEN, now=at(2026, 11))
    assert await store.seasons.end_due(at(2026, 12, 31)) == []
    [end] = await store.seasons.end_due(at(2027, 1, 1))
    assert (end.season, end.next_season) == ("2026-Q4", "2027-Q1")


async def test_ratings_before_and_after_are_kept_for_the_final_card(store: Store) -> None:
    match_id = await forfeited(store, ADA, BEN, now=at(2026, 12))
    rows = await store.db.fetchall(
        "SELECT seat, rating_before, rating_after FROM session_players WHERE match_id = ? "
        "ORDER BY seat", (match_id,))
    start = MODEL.rating().ordinal()
    assert [r["rating_before"] for r in rows] == [pytest.approx(start)] * 2
    assert rows[0]["rating_after"] > start > rows[1]["rating_after"]


async def test_season_ratings_before_and_after_are_kept_for_the_final_card(
        store: Store) -> None:
    """On a server with seasons, the final card shows the season's figures (the board the
    server shows by default) beside the all-time ones: kept with the session."""
    await seasons_on(store)
    first = await forfeited(store, ADA, BEN, now=at(2026, 12))
    second = await forfeited(store, ADA, BEN, now=at(2026, 12, 20))
    start = MODEL.rating().ordinal()
    season, moved = await store.records.season_changes(first) or ("", {})
    assert season == "2026-12"
    assert moved[0][0] == pytest.approx(start) == moved[1][0]
    assert moved[0][1] > start > moved[1][1]
    # The second session starts where the first left the season's board.
    _, again = await store.records.season_changes(second) or ("", {})
    assert again[0][0] == pytest.approx(moved[0][1]) and again[1][0] == pytest.approx(moved[1][1])
    [row] = await store.db.fetchall(
        "SELECT ordinal FROM season_ratings WHERE guild_id = ? AND season = ? AND user_id = ?",
        (GUILD, "2026-12", ADA[0]))
    assert again[0][1] == pytest.approx(row["ordinal"])
    # Seasons off: none.
    await seasons_on(store, "off")
    assert await store.records.season_changes(
        await forfeited(store, ADA, BEN, now=at(2027, 1))) is None


def test_a_long_time_players_rating_keeps_moving() -> None:
    """After 500 sessions the model is sure of a player, yet one more win still moves them:
    ``tau`` keeps a floor under the uncertainty."""
    a, b = MODEL.rating(), MODEL.rating()
    for i in range(500):
        [[a], [b]] = MODEL.rate([[a], [b]], ranks=[0, 1] if i % 2 else [1, 0])
    [[after], _] = MODEL.rate([[a], [b]], ranks=[0, 1])
    assert after.mu - a.mu > 0.1
    assert a.sigma > 1.0
