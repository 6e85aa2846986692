"""A pause of the bot's seen in the middle of a timer check (review93). The real timers' loop,
as in ``tests.test_clocks_stood_still``.

- In the first check after a restart, before the time spent connecting is given: that time,
  counted to now, holds the pause, which a move's judgement added again (``unjudged``).
- As the tenth tick's schema read was on its way, the loop running on before the watch: the
  check judged the turn by its deadline alone, the pause seen meanwhile not judged yet, and
  forfeited it for time nobody could play (a move then was judged in time). Such a turn is
  judged at the next check, which gives the pause first."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali import outgrown, startup
from cogs.umtali.judged import judged_deadline
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_match
from tests.test_clocks_stood_still import Timers, _timed, running


async def test_a_pause_seen_in_the_first_check_is_judged_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_clocks_connect import restarted_slowly

    live = await start_match(world, turn_timer=5)
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    seen: list[float] = []

    async def paused(timers: Timers) -> None:
        for _ in range(5):
            await asyncio.sleep(0)
        await timers.stand_still(600)
        assert svc.clock_state.stood, "the watch saw no pause"
        judged = judged_deadline(svc, restored, world.clock.now)
        assert judged is not None
        seen.append(judged - world.clock.now)

    async with running(world, monkeypatch, first=paused):
        await flush(world)
        assert restored.deadline is not None
        given = restored.deadline - world.clock.now
    assert given == pytest.approx(100, abs=5)
    assert seen[0] == pytest.approx(100, abs=5), \
        f"judged with {seen[0]:.0f} s left mid-check, the turn given {given:.0f} s"


async def test_a_pause_as_the_schema_is_read_forfeits_nobody(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, _ = await _timed(world)
    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        before = live.deadline
        asked = outgrown.stop_if_outgrown
        once = [True]

        async def read_then_stopped(client: Any, s: MatchService) -> bool:
            result = await asked(client, s)
            if once:
                once.clear()
                world.clock.advance(600)  # stopped; the answer is there on waking
                timers._move()  # the watch's sleep is due, its task runs at the next await
            return result

        monkeypatch.setattr(startup, "stop_if_outgrown", read_then_stopped)
        await timers.ticks(10)
        assert not once, "the schema was not read"
        assert not live.over, "forfeited over a pause of the bot's as the schema was read"
        await timers.ticks(1)  # the pause judged first at the next check
        assert not live.over
        assert live.deadline == pytest.approx(before + 600, abs=12)
