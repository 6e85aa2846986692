"""A step back of the system's clock still owed by the running turn (its save failing: the
database busy for the match's row) when the bot stops or another process takes the match over:
the turn owes it there too (review158). Owed time may be less than nothing (``steps``), noted
so, but its readers took only time owed to a turn: the turn gained the step. SimCord, virtual
time."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.standing_still import judged_check
from cogs.umtali.steps import note_step
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row

#: Ten minutes: the step back.
STEP = -600.0


async def test_a_step_back_owed_at_a_stop_is_taken_at_the_restart(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    await svc.check_timers()  # (connected: steps are owed from now on)
    note_step(svc)
    left = deadline - world.clock.now
    world.clock.step(STEP)

    async def locked(*args: Any, **kwargs: Any) -> bool:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "set_deadline", locked)
    await judged_check(svc)
    assert svc.clock_state.owed.get(live.id) == (deadline, STEP), "the step back was saved"
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(deadline, abs=0.01)
    await heartbeat(svc)  # its last sign of life: killed now
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.deadline is not None
    assert restored.deadline - world.clock.now == pytest.approx(left, abs=2), \
        "the turn gained the step back owed at the stop"
