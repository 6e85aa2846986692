"""Time a gateway outage's end owed the running turn, its save failing at first, paid at a
later check (the database free again), then a crash before the next heartbeat: the restart
gives the time once, in its saved deadline. (While the heartbeat noted the bot alive as of now
less the time owed, review72 to review75, the note still said so until the next heartbeat, and
the restart gave it twice.) SimCord, virtual time."""

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


async def test_a_crash_after_the_outages_time_owed_was_paid_gives_it_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    # The gateway drops with 200 s of the turn left, and is back 10 minutes later; the time
    # given back cannot be saved at first (the database busy for the match's row).
    world.clock.now = deadline - 200
    gateway_lost(svc, None)
    world.clock.advance(600)

    async def locked(*args: Any, **kwargs: Any) -> bool:
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as m:
        m.setattr(svc.store, "set_deadline", locked)
        await gateway_back(svc, None)
        assert svc.clock_state.owed, "the time given back was saved"
        world.clock.advance(10)
        await heartbeat(svc)
    # The next check pays it (saved), and the process is killed before its next heartbeat.
    world.clock.advance(5)
    await svc.check_timers()
    assert not svc.clock_state.owed
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(deadline + 600)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # 200 s left as the outage began, 15 s of them run since it ended.
    assert restored.deadline == pytest.approx(world.clock.now + 185, abs=2), \
        "the outage's time was given twice at the restart"
