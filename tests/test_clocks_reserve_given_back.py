"""The table's reserve words when a turn's deadline moves without a move while its reserve
runs (review133): time given back after an outage moved the deadline but not the note that
the reserve runs (memory only), so the table said "reserve 2:00", the figure at the turn's
start, until the next check; a restart, which loses that note, said so too (SimCord, virtual
time)."""

from __future__ import annotations

from collections.abc import Callable

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, flush, start_match
from tests.test_faults_timers import to_turn_end
from tests.time_control_helpers import table_text

RUNNING = "the reserve is running until the turn ends"


async def test_time_given_back_while_the_reserve_runs_keeps_it_shown_running(
        world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="blitz")
    start = world.clock.now
    await to_turn_end(world, live)
    world.clock.now = start + 30 + 45
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.reserve_running == live.deadline
    gateway_lost(svc, None)
    world.clock.now += 20
    await gateway_back(svc, None)
    await flush(world)
    assert live.reserve_running == live.deadline
    assert RUNNING in table_text(world, live), table_text(world, live)


async def test_a_restart_while_the_reserve_runs_shows_it_running(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="blitz")
    start = world.clock.now
    await to_turn_end(world, live)
    world.clock.now = start + 30 + 45
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert RUNNING in table_text(world, live)
    world.clock.advance(2)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    await flush(world)
    # 73 s left of the turn (its reserve), over the grace: the reserve still runs.
    assert restored.reserve_running == restored.deadline
    assert RUNNING in table_text(world, restored), table_text(world, restored)
