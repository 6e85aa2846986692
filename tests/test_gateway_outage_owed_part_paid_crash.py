"""Time a gateway outage's end owed the running turn, its save failing at first, then paid at a
later check while another outage's end added to it during the save (``give_back._pay_one``:
the rest stays owed, on the new deadline), then a crash: the time paid is given once, in its
saved deadline (while the heartbeat's note said alive as of the time first owed, review74, the
restart gave it again). SimCord, virtual time."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost, heartbeat
from cogs.umtali.give_back import owe
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row

MORE = 100.0


async def test_a_crash_after_part_of_the_time_owed_was_paid_gives_it_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
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
    saving = svc.store.set_deadline

    async def more_owed(*args: Any, **kwargs: Any) -> bool:
        saved = await saving(*args, **kwargs)
        # Another outage's end, during the save, owes the turn more on the deadline paid on.
        owe(svc, {live.id: (deadline, MORE)})
        return saved

    # The next check pays the 600 s (saved), 100 s stay owed; the process is killed before
    # its next heartbeat.
    world.clock.advance(5)
    with monkeypatch.context() as m:
        m.setattr(svc.store, "set_deadline", more_owed)
        await svc.check_timers()
    was, gap = svc.clock_state.owed[live.id]
    assert was == pytest.approx(deadline + 600) and gap == MORE
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(deadline + 600)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # 200 s left as the outage began, 15 s of them run since it ended. (The 100 s still owed
    # are lost with the process: time owed is not in the note, docs/processes.md.)
    assert restored.deadline == pytest.approx(world.clock.now + 185, abs=2), \
        "the time paid was given twice at the restart"
