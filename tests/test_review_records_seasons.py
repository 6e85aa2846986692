"""Seasons reviewed: what a season's summary says when no season follows it, and the clock a
result is recorded by."""

from __future__ import annotations

import datetime as dt

from cogs.umtali.season_summaries import season_tick
from tests.discord_helpers import World, play_out, start_match
from tests.test_records_discord import resign
from tests.test_seasons_discord import DECEMBER, NEW_YEAR, _seasons_on


async def test_a_season_ended_with_seasons_off_does_not_promise_a_new_one(
        world: World) -> None:
    summaries, boss = await _seasons_on(world)
    world.clock.now = DECEMBER
    await resign(world, world.alice, await start_match(world))
    off = await boss.slash(world.channel, "umtali-admin settings", seasons="off")
    assert off.acknowledged and "no new season follows" in str(off.response.content)
    world.clock.now = NEW_YEAR
    assert await season_tick(world.bot) == 1
    await world.env.settle()
    [summary] = summaries.history()
    said = str(summary.embeds[0].description)
    assert "**ben**" in said and "2 players took part." in said
    # No season follows: nobody's rating moved, and no ladder opened again.
    assert "halfway back" not in said and "open again" not in said
    assert "Seasons are off now" in said
    assert world.bot.matches is not None
    assert await world.bot.matches.store.seasons.running(world.guild.id) is None


async def test_a_resignation_is_recorded_at_the_bots_clock(world: World) -> None:
    # The bot's clock (deadlines, season ends) is the one a result is recorded by: a month
    # away from the machine's own, the session still lands in the clock's season.
    await _seasons_on(world)
    march = dt.datetime(2027, 3, 15, 12, tzinfo=dt.UTC).timestamp()
    world.clock.now = march
    live = await start_match(world)
    await resign(world, world.alice, live)
    assert world.bot.matches is not None
    store = world.bot.matches.store
    line = await store.records.session(live.id)
    assert line is not None and line.finished_at == world.clock.now
    board = await store.seasons.board(world.guild.id, "2027-03", 1)
    assert [row.name for row in board.rows] == ["ben", "ada"]


async def test_a_session_played_out_is_recorded_at_the_bots_clock(world: World) -> None:
    # As a resignation: the last move's save dates the result by the bot's clock.
    march = dt.datetime(2027, 3, 15, 12, tzinfo=dt.UTC).timestamp()
    world.clock.now = march
    live = await start_match(world)
    await play_out(world, live)
    assert live.over
    assert world.bot.matches is not None
    line = await world.bot.matches.store.records.session(live.id)
    assert line is not None and line.how == "played out"
    assert march <= line.finished_at <= world.clock.now
