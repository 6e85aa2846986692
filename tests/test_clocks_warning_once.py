"""A turn warned is warned again only if its end moved by a real amount (review132): each time
given back marked the turn unwarned, so three gateway drops of 6 s after the warning sent three
more warnings, each pinging its player, and a restart of 5 s after it sent "50 seconds left",
then "60 seconds left". A real outage (``worth_telling``) still warns again (SimCord, virtual
time, the real SQLite file)."""

from __future__ import annotations

from pathlib import Path

from cogs.umtali.clock import gateway_back, gateway_lost, resume_after_downtime
from tests.discord_helpers import World, flush, start_match
from tests.test_clocks_warning import _warnings
from tests.test_faults_timers import db_row


async def test_short_outages_after_the_warning_do_not_warn_again(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - 50
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert _warnings(world, live) == 1 and live.warned
    for _ in range(3):
        deadline = live.deadline
        gateway_lost(svc, None)
        world.clock.now += 6
        await gateway_back(svc, None)
        assert live.deadline == deadline + 6
        world.clock.now += 1
        await svc.check_timers(now=world.clock.now)
        await flush(world)
        assert _warnings(world, live) == 1, "warned again after a 6 s outage"
        assert live.warned and db_row(db_path, live.id)["warned"] == 1
    # A real outage: the turn's end moved by a minute, and the player is warned of it.
    gateway_lost(svc, None)
    world.clock.now += 60
    await gateway_back(svc, None)
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over
    assert _warnings(world, live) == 2


async def test_a_quick_restart_after_the_warning_does_not_warn_again(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - 50
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert _warnings(world, live) == 1 and live.warned
    # Stopped then, back 5 s later: the turn is given at least a minute (``GRACE``).
    stopped = world.clock.now
    world.clock.now += 5
    deadline = live.deadline
    await resume_after_downtime(svc, [live], {live.id: stopped})
    assert live.deadline == world.clock.now + 60 and live.deadline - deadline == 15
    assert live.warned and db_row(db_path, live.id)["warned"] == 1
    await svc.check_timers(now=world.clock.now + 1)
    await flush(world)
    assert _warnings(world, live) == 1, "warned again after a quick restart"
