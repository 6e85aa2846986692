"""fix144 through the bot: December's last session resigned in its last second, its count
failing as it ended; a member asks for the leaderboard half a minute past the turn (past
``SKEW``); the season tick's next sweep counts the session into December, ends December and
posts its summary, once. The read ended December at once: the session went into no season,
and the summary missed it."""

from __future__ import annotations

import pytest

from cogs.umtali.season_summaries import season_tick
from tests.discord_helpers import World, start_match
from tests.test_fix133_seasons_discord import TURN
from tests.test_records_discord import resign, resign_uncounted
from tests.test_seasons_discord import DECEMBER, _seasons_on, _title


async def test_a_read_past_the_turn_leaves_december_to_its_last_session(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    summaries, _ = await _seasons_on(world)
    world.clock.now = DECEMBER
    await resign(world, world.alice, await start_match(world))  # December opens
    world.clock.now = TURN - 120
    live = await start_match(world)
    world.clock.now = TURN - 0.5
    await resign_uncounted(world, world.alice, live, monkeypatch)
    world.clock.now = TURN + 30
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(board) == "Umtali leaderboard · Railway Club · December 2026 season"
    assert world.bot.matches is not None
    store = world.bot.matches.store
    assert await store.seasons.running(world.guild.id) == "2026-12"
    world.clock.now = TURN + 60  # the next tick
    await season_tick(world.bot)
    await world.env.settle()
    december = await store.seasons.board(world.guild.id, "2026-12", 1)
    assert sorted(r.sessions for r in december.rows) == [2, 2]
    [summary] = summaries.history()
    assert summary.embeds[0].title == "The December 2026 season is over"
    assert "won 2 of 2" in str(summary.embeds[0].description)
    world.clock.now = TURN + 120
    await season_tick(world.bot)
    await world.env.settle()
    assert len(summaries.history()) == 1
    assert await store.seasons.running(world.guild.id) == "2027-01"
