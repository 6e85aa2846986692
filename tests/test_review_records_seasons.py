"""Seasons reviewed: what a season's summary says when no season follows it."""

from __future__ import annotations

from cogs.umtali.seasons import season_tick
from tests.discord_helpers import World, start_match
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
