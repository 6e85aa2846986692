"""The timers' loop notes its wake as it wakes, before anything awaits (review158): it read its
wake, then awaited the check of the database's schema (every tenth tick) and only then noted
it; a step back of the clock seen by the watch meanwhile made that wake, noted after it, ten
minutes ahead of the clock as stepped, and a real pause of the bot's in those ten minutes was
judged as seen already and not given back (58 s left, not 119). The real timers' loop over
SimCord, virtual time."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import startup
from cogs.umtali.outgrown import stop_if_outgrown
from tests.discord_helpers import World, start_match
from tests.test_clocks_stood_still import Timers, running

STEP = -600.0


async def test_a_pause_after_a_step_back_seen_during_the_schema_check_is_given_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    assert live.deadline is not None
    armed: list[Timers] = []

    async def checked(*args: Any, **kwargs: Any) -> bool:
        # The clock steps back as the check awaits the database; the watch wakes meanwhile.
        if armed:
            timers = armed.pop()
            world.clock.step(STEP)
            await timers.stand_still(0)
        return await stop_if_outgrown(*args, **kwargs)

    monkeypatch.setattr(startup, "stop_if_outgrown", checked)
    async with running(world, monkeypatch) as timers:
        left = live.deadline - world.clock.now
        await timers.ticks(9)
        armed.append(timers)
        await timers.ticks(1)  # (the tenth: its schema checked)
        assert not armed
        await timers.pause(60)  # (then a tick)
        assert not live.over and live.deadline is not None
        assert live.deadline - world.clock.now + 12 == pytest.approx(left, abs=1.5), \
            "the pause after the step back was not given back"
