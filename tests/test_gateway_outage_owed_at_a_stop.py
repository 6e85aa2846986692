"""Time a gateway outage's end owed the running turn, its save failing (the database busy for
the match's row), not paid yet when the bot stops: the restart gives the turn that time with
the time it had left, as the bot would have had it paid (``alive.owed_to_note``). Before, it was
lost with the process: the player's turn cut short by the whole outage. SimCord, virtual time."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row

OUTAGE = 600.0


async def test_time_owed_at_a_stop_is_given_at_the_restart(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    # The gateway drops with 200 s of the turn left, and is back 10 minutes later; the time
    # given back cannot be saved (the database busy for the match's row) before the bot stops.
    world.clock.now = deadline - 200
    gateway_lost(svc, None)
    world.clock.advance(OUTAGE)

    async def locked(*args: Any, **kwargs: Any) -> bool:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "set_deadline", locked)
    await gateway_back(svc, None)
    assert svc.clock_state.owed, "the time given back was saved"
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(deadline, abs=0.01)
    world.clock.advance(15)
    await heartbeat(svc)  # its last sign of life: killed now
    world.clock.advance(30)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # 200 s left as the outage began, 15 s of them run before the stop; the 30 s offline
    # given back as to every turn.
    assert restored.deadline == pytest.approx(world.clock.now + 185, abs=2), \
        "the outage's time owed was lost with the process"
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(restored.deadline, abs=0.01)
    # Given once: a second restart finds the turn's deadline moved on, and the note's
    # entry no longer its turn's.
    world.clock.advance(1)
    await again.matches.check_timers()  # connected (too quickly to give that time back)
    world.clock.advance(4)
    await heartbeat(again.matches)
    third = make_bot()
    await world.env.restart_bot(third)
    assert third.matches is not None
    assert third.matches.matches[live.id].deadline == pytest.approx(restored.deadline, abs=2)


async def test_time_owed_as_the_gateway_drops_again_is_given_at_the_restart(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The network flaps: the first outage's time, owed (its save failing), is noted though
    the clocks stand still for the second (its time no part of what is owed), and a stop
    during the second gives both (review78)."""
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    world.clock.now = deadline - 200
    gateway_lost(svc, None)
    world.clock.advance(OUTAGE)

    async def locked(*args: Any, **kwargs: Any) -> bool:
        # The gateway drops again while the save waits on the database.
        gateway_lost(svc, None)
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "set_deadline", locked)
    await gateway_back(svc, None)
    was, gap = svc.clock_state.owed[live.id]
    assert was == deadline and gap == pytest.approx(OUTAGE)
    assert svc.clock_state.outage is not None
    world.clock.advance(100)
    await heartbeat(svc)  # its last sign of life, the second outage under way: killed now
    world.clock.advance(30)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # 200 s left as the first outage began: none of it ran since (two outages back to back).
    assert restored.deadline == pytest.approx(world.clock.now + 200, abs=2), \
        "the first outage's time owed was lost with the process"
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(restored.deadline, abs=0.01)
