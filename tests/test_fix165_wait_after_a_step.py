""""Keep waiting" clicked just after a step of the system's clock, before the timers saw it:
the absent player's new turn's time runs from the click, by the clock as stepped, and owes
nothing of the step (review158: its deadline set without the step looked at first, nor when
its clock was set noted, as a move's is; the next check took the step off the new time:
85800 s, not 86400). SimCord, virtual time."""

from __future__ import annotations

import pytest

from cogs.umtali.standing_still import judged_check
from cogs.umtali.steps import note_step
from tests.discord_helpers import World, flush
from tests.time_control_helpers import button, time_up

DAY = 86400.0


@pytest.mark.parametrize("step", [-600.0, 600.0])
async def test_keep_waiting_just_after_a_step_gives_a_whole_turn(
        world: World, step: float) -> None:
    live, question = await time_up(world)
    svc = world.bot.matches
    assert svc is not None
    absent = live.session.to_act
    waiting = world.bob if live.player_ids[1 - absent] == world.bob.user.id else world.alice
    note_step(svc)
    world.clock.step(step)
    await waiting.click(question, custom_id=button(question, "wait"))
    await flush(world)
    assert live.deadline is not None
    clicked = world.clock.now
    await judged_check(svc)
    await flush(world)
    assert live.deadline is not None and not live.over
    assert live.deadline - clicked == pytest.approx(DAY, abs=1), \
        "the new turn's time was charged the step"
