"""Time a gateway outage's end owes the running turns, its save failing (the database busy for
the matches' rows): owed in memory alone (``ClockState.owed``), tried again at every check. The
heartbeat noted the bot alive as of now all the same, so a stop (or a crash) before it was
paid lost it: the restart gave the turn what it had left by the saved deadline, from before
the outage. SimCord, virtual time."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost, heartbeat
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row


async def test_a_stop_with_an_outages_time_owed_gives_it_back_at_the_restart(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    # The gateway drops with 200 s of the turn left, and is back 10 minutes later; the time
    # given back cannot be saved (the database busy for the match's row), and the bot is
    # stopped 20 s later, its heartbeats saved meanwhile.
    world.clock.now = deadline - 200
    gateway_lost(svc, None)
    world.clock.advance(600)

    async def locked(*args: Any, **kwargs: Any) -> bool:
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as m:
        m.setattr(svc.store, "set_deadline", locked)
        await gateway_back(svc, None)
        assert svc.clock_state.owed, "the time given back was saved"
        for _ in range(2):
            world.clock.advance(10)
            await heartbeat(svc)
        assert db_row(db_path, live.id)["deadline"] == deadline
        await svc.close()  # as the bot's close does
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # 200 s left as the outage began, 20 s of them run since it ended.
    assert restored.deadline == pytest.approx(world.clock.now + 180, abs=2), \
        "the outage's time owed was lost at the restart"
