"""A clean stop during a gateway outage (a deploy, an operator restarting a bot cut off from
Discord): the clocks have stood still since the outage began, so the restart gives each running
turn back the time it had then, not the time it had at the stop (``alive.heartbeat``).
SimCord, virtual time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_lost
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row


async def test_a_stop_during_an_outage_gives_back_the_time_left_when_it_began(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    # The gateway drops with 200 s of the turn left; the bot is stopped 10 minutes later,
    # still cut off, and started again at once.
    world.clock.now = live.deadline - 200
    gateway_lost(svc, None)
    world.clock.advance(600)
    await svc.close()  # as the bot's close does (SimCord's restart is a crash's)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.deadline == pytest.approx(world.clock.now + 200, abs=2)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline


async def test_a_crash_during_an_outage_gives_back_the_time_left_when_it_began(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    """The same with the process killed (no clean stop): its leases were renewed through the
    outage (the database was there), and must not stand for its clocks running."""
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - 200
    gateway_lost(svc, None)
    for _ in range(60):  # ten minutes of the bot's ticks: heartbeats and lease renewals
        world.clock.advance(10)
        await heartbeat(svc)
        await svc.owners.tick(world.clock.now)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.deadline == pytest.approx(world.clock.now + 200, abs=12)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline
