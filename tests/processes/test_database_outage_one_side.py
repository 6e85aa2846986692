"""A known limit (review133, README "Reliability", docs/processes.md): the database failing
for one process only. A player's move reaches the process not holding the match, 2 s before
the turn's deadline, and fails to save there (its own connection lost); the holder's writes
work, nothing of the failure reaches it, and its clock forfeits the turn at the deadline as if
no move came. Strict: should the holder come to hear of it, this fails, and the docs are
changed with it.

SimCord, virtual time, on SQLite and PostgreSQL: the non-holder's writes refused as the backend
refuses them when it is out of reach."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import assert_error

from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import BUSY
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, process, settle
from tests.processes.test_database_outage_elsewhere import Down, _move_via, _said


@pytest.mark.xfail(strict=True, reason="the holder cannot hear of a failure only another "
                                       "process sees (documented limit)")
async def test_a_move_failed_only_on_the_non_holder_is_not_forfeited(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    await settle(world, main)
    assert live.deadline is not None
    deadline = live.deadline
    async with process(world, store_target, "p2") as other:
        world.clock.now = deadline - 3
        await main.check_timers(now=world.clock.now)
        down = Down(monkeypatch, other)
        down.on = True
        world.clock.now = deadline - 2
        answer = await _move_via(world, other, live.id)
        assert BUSY[:30] in _said(answer), _said(answer)
        assert_error(world.env, contains="")
        world.clock.now = deadline + LATE + 1
        await main.check_timers(now=world.clock.now)
        await settle(world, main)
        assert not live.over, "the holder forfeited the player whose move p2 could not save"
