"""The table while a player's reserve runs (review132): it said "own time is up: the reserve
is running · reserve 2:00 / 2:00", the running reserve's figure as at the turn's start, kept
while it ran. It says the reserve runs until the turn ends (which the table counts down),
and the other player's reserve, which stands (SimCord, virtual time)."""

from __future__ import annotations

from tests.discord_helpers import World, flush, start_match
from tests.test_faults_timers import to_turn_end
from tests.time_control_helpers import table_text


async def test_the_running_reserve_is_shown_by_its_end(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="blitz")
    slow = live.session.to_act
    start = world.clock.now
    await to_turn_end(world, live)
    world.clock.now = start + 30 + 45
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.deadline is not None and live.reserve_running == live.deadline
    table = table_text(world, live)
    names = live.names
    assert "the reserve is running until the turn ends" in table, table
    assert f"Turn ends <t:{int(live.deadline)}:R>" in table, table
    # Not the running reserve's figure from the turn's start, 45 s of it spent since.
    assert f"{names[slow]} 2 minutes" not in table, table
    # As the other reserve line says it ("reserve: ..."): in Russian, no «у» before a name.
    assert f"until the turn ends; reserve: {names[1 - slow]} 2 minutes." in table, table
