"""fix139 through the bot (review124): seasons turned on by a manager just past the turn, the
month's last session resigned in its last second with seasons off, its count failing. The
manager's change is timed by the bot's clock (``seasons_since``), as the session's end and the
tick are: December is not opened, nor summed up. Timed by the wall clock (the store's
default), it was, whenever the two differ (here, a test clock; a process's clock apart)."""

from __future__ import annotations

import datetime as dt

import pytest

from cogs.umtali.season_summaries import TICK_EVERY, season_tick
from tests.discord_helpers import World, start_match
from tests.test_records_discord import resign_uncounted
from tests.test_seasons_discord import _seasons_on

TURN = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()


async def test_seasons_turned_on_past_the_turn_open_no_december(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.clock.now = TURN - 120
    live = await start_match(world)
    world.clock.now = TURN - 0.5
    await resign_uncounted(world, world.alice, live, monkeypatch)
    world.clock.now = TURN + 10
    summaries, _ = await _seasons_on(world)
    world.clock.now = TURN + TICK_EVERY - 1
    await season_tick(world.bot)
    await world.env.settle()
    assert world.bot.matches is not None
    store = world.bot.matches.store
    assert [r["season"] for r in await store.db.fetchall("SELECT season FROM seasons")] \
        in ([], ["2027-01"])
    assert summaries.history() == []
