"""fix133 through the bot: seasons turned on in December, the month's last session resigned in
its last second, its count failing as it ended; the season tick's next sweep, just past the
turn, counts it into December (opened for it, as its count at its end would have), ends
December and posts its summary. It was rated into no season: no December, no summary."""

from __future__ import annotations

import datetime as dt

import pytest

from cogs.umtali.season_summaries import TICK_EVERY, season_tick
from tests.discord_helpers import World, start_match
from tests.test_records_discord import resign_uncounted
from tests.test_seasons_discord import _seasons_on

TURN = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()


async def test_the_months_last_second_counted_at_the_next_tick_is_in_its_season(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    summaries, _ = await _seasons_on(world)
    world.clock.now = TURN - 120
    live = await start_match(world)  # (the deal's pauses move the clock on)
    world.clock.now = TURN - 0.5
    await resign_uncounted(world, world.alice, live, monkeypatch)
    world.clock.now = TURN + TICK_EVERY - 1  # the next tick, a minute at most after
    await season_tick(world.bot)
    await world.env.settle()
    assert world.bot.matches is not None
    store = world.bot.matches.store
    [ended] = await store.db.fetchall("SELECT finished_at FROM session_results")
    assert TURN - 1 < ended["finished_at"] < TURN  # its end in December's last second
    december = await store.seasons.board(world.guild.id, "2026-12", 1)
    assert sorted(r.sessions for r in december.rows) == [1, 1]
    [summary] = summaries.history()
    assert summary.embeds[0].title == "The December 2026 season is over"
    assert await store.seasons.running(world.guild.id) == "2027-01"
