"""Two processes on one database: a manager changes the server's cadence through one while the
other ends the season (its tick, or a session counted just after the month's turn). The
season in play ends once, with the next one opened only if the cadence in force when it ends
asks for one: a season opened from a cadence read before the manager's change (seasons turned
off) was a season nobody asked for, its summary said the ladder was open again, and turned on
later the ratings were softly reset twice (review52)."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali import season_summaries as season_cogs
from cogs.umtali.season_summaries import CLAIM, TICK_EVERY, season_tick
from data import records, season_queries, seasons
from data.db import BUSY_TIMEOUT, Tx
from data.models import PlayerStats
from data.ratings import MODEL
from data.seasons import SeasonEnd, soft_reset
from data.store import Store
from settings import Settings
from tests.discord_helpers import World, start_match
from tests.test_records import GUILD, forfeited
from tests.test_records_discord import resign
from tests.test_seasons import ADA, BEN, CY, at, seasons_on
from tests.test_seasons_cadence_race import blocked_or_done
from tests.test_seasons_discord import DECEMBER, NEW_YEAR, _ben_beats_ada_twice, _seasons_on

TURN = dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()  # November is over


async def mu(store: Store, season: str, user_id: int) -> float:
    row = await store.db.fetchone(
        "SELECT mu FROM season_ratings WHERE guild_id = ? AND season = ? AND user_id = ?",
        (GUILD, season, user_id))
    assert row is not None
    return float(row["mu"])


async def test_seasons_turned_off_as_another_process_ticks_open_no_new_season(
        store_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ticker = await Store.open(store_target)   # its tick has read the open seasons
    manager = await Store.open(store_target)  # a manager turns seasons off through it now
    try:
        await seasons_on(ticker)
        await forfeited(ticker, ADA, BEN, now=at(2026, 11, 10))
        november = await mu(ticker, "2026-11", ADA[0])
        real = ticker.db.transaction

        @asynccontextmanager
        async def after_the_change() -> AsyncIterator[Tx]:
            await manager.change_guild_settings(GUILD, {"seasons": "off"})
            async with real() as tx:
                yield tx

        monkeypatch.setattr(ticker.db, "transaction", after_the_change)
        [end] = await ticker.seasons.end_due(TURN + 30)
        monkeypatch.undo()
        # Seasons were off when November ended: it ends with no season after it.
        assert (end.season, end.next_season) == ("2026-11", None)
        assert await ticker.seasons.running(GUILD) is None
        # Turned on again in March: one soft reset from November, not two.
        await manager.change_guild_settings(GUILD, {"seasons": "monthly"})
        await forfeited(manager, CY, BEN, now=at(2027, 3, 10))
        march = await mu(manager, "2027-03", ADA[0])
        assert march == pytest.approx(soft_reset(november, MODEL.rating().sigma).mu)
    finally:
        await manager.close()
        await ticker.close()


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_a_change_of_cadence_during_the_rollover_is_told_the_season_it_left_running(
        store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ticker = await Store.open(store_target)
    manager = await Store.open(store_target)
    try:
        await seasons_on(ticker)
        await forfeited(ticker, ADA, BEN, now=at(2026, 11, 10))
        real = seasons.end_season
        told: list[asyncio.Task[str | None]] = []

        async def change() -> str | None:
            # As /umtali-admin settings seasons:off: the change, then the season in play,
            # which its answer names ("still ends at its usual time; no new season follows").
            await manager.change_guild_settings(GUILD, {"seasons": "off"})
            return await manager.seasons.running(GUILD)

        async def ending_as_the_manager_changes(*args: object) -> SeasonEnd | None:
            told.append(asyncio.create_task(change()))
            await blocked_or_done(ticker, told[0])  # type: ignore[arg-type]
            return await real(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(season_queries, "end_season", ending_as_the_manager_changes)
        [end] = await ticker.seasons.end_due(TURN + 30)
        monkeypatch.undo()
        running = await told[0]
        # The manager's answer names the season that is in play once the change is made.
        assert running == await ticker.seasons.running(GUILD)
        assert (end.season, running) == ("2026-11", end.next_season)
    finally:
        await manager.close()
        await ticker.close()


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_a_session_counted_as_seasons_are_turned_off_opens_no_new_season(
        store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    counter = await Store.open(store_target)  # counts a session just after the month's turn
    manager = await Store.open(store_target)  # a manager turns seasons off meanwhile
    try:
        await seasons_on(counter)
        await forfeited(counter, ADA, BEN, now=at(2026, 11, 10))
        real = seasons.current_season

        async def after_the_change(tx: Tx, guild_id: int, cadence: str, now: float,
                                   clock: float | None = None) -> str | None:
            # The counter has read the cadence (monthly); the manager's change commits now.
            await manager.change_guild_settings(GUILD, {"seasons": "off"})
            return await real(tx, guild_id, cadence, now, clock)

        monkeypatch.setattr(records, "current_season", after_the_change)
        await forfeited(counter, CY, BEN, now=TURN + 5)
        monkeypatch.undo()
        # Seasons are off: the session, past November's turn, ends it at once (as one counted
        # past the turn does with seasons on) with no season after it, and is rated into none.
        assert await counter.seasons.running(GUILD) is None
        assert [s.season for s in await counter.seasons.of(GUILD)] == ["2026-11"]
        assert await counter.seasons.end_due(TURN + 60) == []
        assert await counter.seasons.running(GUILD) is None
    finally:
        await manager.close()
        await counter.close()


async def test_a_summary_posted_as_the_database_failed_is_marked_later_not_posted_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The summary is posted, then the database is busy (another writer holds the file) past
    its timeout as it is marked posted. The process is still running: it marks it at a later
    tick, and never posts it again (its claim running out, the post would come minutes later,
    past the time Discord keeps a nonce: a second summary)."""
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    world.clock.now = NEW_YEAR
    real = season_cogs.announce
    held: list[threading.Timer] = []

    async def posted_then_busy(*args: Any) -> bool:
        done = await real(*args)
        other = sqlite3.connect(db_path, isolation_level=None, timeout=0,
                                check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # until the mark has given up

        def let_go() -> None:
            other.execute("ROLLBACK")
            other.close()

        held.append(threading.Timer(BUSY_TIMEOUT + 1, let_go))
        held[0].start()
        return done

    with monkeypatch.context() as patched:
        patched.setattr(season_cogs, "announce", posted_then_busy)
        assert await season_tick(world.bot) == 1
    await asyncio.to_thread(held[0].join)
    await world.env.settle()
    # The next ticks, the database free again: the last past the claim's time.
    for later in (TICK_EVERY, CLAIM + TICK_EVERY):
        world.clock.now = NEW_YEAR + later
        await season_tick(world.bot)
        await world.env.settle()
    assert [m.embeds[0].title for m in summaries.history()] == ["The December 2026 season is over"]
    assert world.bot.matches is not None
    assert await world.bot.matches.store.seasons.unannounced() == []


async def test_a_tick_a_few_seconds_ahead_waits_for_the_seasons_last_session_elsewhere(
        store_target: str | Path) -> None:
    """Two processes' clocks differ by a few seconds: the one ahead ticks just past midnight
    by its clock, as the one behind counts a session in the month's last seconds by its own.
    The session is in the month's board (ended first, it was rated into no season)."""
    ahead = await Store.open(store_target)   # its clock 3 s ahead
    behind = await Store.open(store_target)
    try:
        await seasons_on(ahead)
        await forfeited(ahead, ADA, BEN, now=at(2026, 11, 10))
        ends = await ahead.seasons.end_due(TURN + 2)    # 23:59:59 by the other's clock
        await forfeited(behind, CY, BEN, now=TURN - 0.5)  # played in November
        ends += await ahead.seasons.end_due(TURN + 60)
        november = await ahead.seasons.board(GUILD, "2026-11", 1)
        assert {r.user_id: r.sessions for r in november.rows} == {1: 1, 2: 2, 3: 1}
        assert [(e.season, e.next_season) for e in ends] == [("2026-11", "2026-12")]
        # Its players are carried into December.
        carried = await ahead.db.fetchall(
            "SELECT user_id FROM season_ratings WHERE guild_id = ? AND season = '2026-12'",
            (GUILD,))
        assert sorted(r["user_id"] for r in carried) == [1, 2, 3]
    finally:
        await behind.close()
        await ahead.close()


async def test_a_result_whose_count_failed_for_now_is_counted_into_its_month_at_the_turn(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session of December whose count failed for now (the disk full), still failing as the
    month's first tick sweeps: the tick waits to end December, and counts it at the next one
    (it was passed by until the bot's next start, December ended without it: rated into no
    season, and missing from the all-time board meanwhile). December is open (a session
    counted in it first): a late result opens no season of a month gone by (review116)."""
    summaries, _ = await _seasons_on(world)
    world.clock.now = DECEMBER
    await resign(world, world.alice, await start_match(world))

    def full(*args: object) -> PlayerStats:
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patched:
        patched.setattr(records, "seat_stats", full)
        await resign(world, world.alice, await start_match(world))
        world.clock.now = NEW_YEAR
        await season_tick(world.bot)  # the disk still full
    world.clock.now = NEW_YEAR + TICK_EVERY
    await season_tick(world.bot)
    await world.env.settle()
    assert world.bot.matches is not None
    store = world.bot.matches.store
    december = await store.seasons.board(world.guild.id, "2026-12", 1)
    assert sorted(r.sessions for r in december.rows) == [2, 2]
    assert len((await store.records.leaderboard(world.guild.id, 1)).rows) == 2
    [summary] = summaries.history()
    assert summary.embeds[0].title == "The December 2026 season is over"


async def _posted_then_killed(world: World, monkeypatch: pytest.MonkeyPatch
                              ) -> tuple[Any, Store]:
    """December's summary posted at the new year by a process killed before marking it
    posted: the summaries' channel, and that process's store."""
    summaries, _ = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    world.clock.now = NEW_YEAR
    assert world.bot.matches is not None
    store = world.bot.matches.store

    async def killed(*args: object) -> bool:
        raise RuntimeError("killed here")

    with monkeypatch.context() as patched:
        patched.setattr(type(store.seasons), "mark_announced", killed)
        assert await season_tick(world.bot) == 1
    await world.env.settle()
    return summaries, store


async def test_a_summary_posted_by_a_process_killed_before_marking_it_is_not_posted_again(
        world: World, db_path: Path, made_bots: list[UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process posts the summary and is killed before marking it posted; it is not started
    again under its name. Another takes the summary over once its claim runs out, minutes
    later (past the time Discord keeps the post's nonce): it finds the summary in the channel,
    and posts no second one."""
    summaries, _ = await _posted_then_killed(world, monkeypatch)
    world.clock.now = NEW_YEAR + CLAIM + TICK_EVERY
    other = UmtaliBot(Settings(token="test", db_path=db_path, process="p2"), timers=False,
                      computer_pause=0, clock=world.clock)
    made_bots.append(other)
    await world.env.restart_bot(other)
    await world.env.settle()
    await season_tick(other)
    await world.env.settle()
    assert [m.embeds[0].title for m in summaries.history()] == ["The December 2026 season is over"]
    assert other.matches is not None
    assert await other.matches.store.seasons.unannounced() == []


async def test_a_summary_posted_in_english_is_found_after_the_server_turned_to_russian(
        world: World, db_path: Path, made_bots: list[UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As above, but the server's admins turn its language to Russian between the post and
    the look: the summary is found by its English title all the same, not posted again in
    Russian."""
    summaries, store = await _posted_then_killed(world, monkeypatch)
    # The admins' command, through the process that stops.
    await store.change_guild_settings(world.guild.id, {"language": "ru"})
    other = UmtaliBot(Settings(token="test", db_path=db_path, process="p2"), timers=False,
                      computer_pause=0, clock=world.clock)
    made_bots.append(other)
    await world.env.restart_bot(other)  # its first tick: the summary is still claimed
    await world.env.settle()
    assert other.matches is not None
    assert other.matches.prefs.guild_tr(world.guild.id).lang == "ru"
    world.clock.now = NEW_YEAR + CLAIM + TICK_EVERY
    await season_tick(other)
    await world.env.settle()
    assert [m.embeds[0].title for m in summaries.history()] == ["The December 2026 season is over"]
    assert await other.matches.store.seasons.unannounced() == []
