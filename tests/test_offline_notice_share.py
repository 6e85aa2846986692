"""After downtime, the notice in the match ("I was offline for ...", with a mention) goes out
only for an outage worth telling against the turn's time: by correspondence (a day a turn) a
restart of minutes pinged every player of every match, each time; now it moves the turn's end
on without a word, and an outage of hours is still told. SimCord, a real SQLite file."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.time_control import HOUR, MINUTE
from tests.discord_helpers import World, flush, start_match, thread_of


@pytest.mark.parametrize(("options", "down", "told"), [
    ({"time_control": "correspondence"}, 10 * MINUTE, False),
    ({"time_control": "correspondence"}, 3 * HOUR, True),
    ({"turn_timer": 5}, 2 * MINUTE, True),
])
async def test_downtime_is_told_as_it_weighs_against_the_turn(
        world: World, make_bot: Callable[[], UmtaliBot], options: dict[str, object],
        down: float, told: bool) -> None:
    live = await start_match(world, **options)
    deadline = live.deadline
    assert deadline is not None and world.bot.matches is not None
    world.clock.now = deadline - 100
    await heartbeat(world.bot.matches)
    world.clock.now = deadline - 100 + down
    again = make_bot()
    await world.env.restart_bot(again)
    svc = again.matches
    assert svc is not None
    restored = svc.matches[live.id]
    # The turn has its time back either way.
    assert restored.deadline is not None and abs(restored.deadline - (world.clock.now + 100)) < 1
    await svc.check_timers(now=world.clock.now + 1)
    await flush(world)
    said = [m.content for m in thread_of(world, restored).history() if "offline" in m.content]
    assert bool(said) == told, said
