"""Time a gateway outage's end owed the running turn, its save failing at first, paid at a
later check (the database free again) in full, or in part (another outage's end adding to it
during the save: ``give_back._pay_one`` keeps the rest owed, on the new deadline), then a crash
before the next heartbeat: the restart gives the time paid once, in its saved deadline, and the
rest owed from the note of time owed (``alive.owed_to_note``). (While
the heartbeat noted the bot alive as of now less the time owed, review72 to review75, the note
still said so until the next heartbeat, and the restart gave it twice.) SimCord, virtual time."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.give_back import owe
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row


@pytest.mark.parametrize("more", [0.0, 100.0])
async def test_a_crash_after_the_outages_time_owed_was_paid_gives_it_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch, more: float) -> None:
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
    saving = svc.store.set_deadline

    async def more_owed(*args: Any, **kwargs: Any) -> bool:
        saved = await saving(*args, **kwargs)
        # Another outage's end, during the save, owes the turn more on the deadline paid on.
        owe(svc, {live.id: (deadline, more)})
        return saved

    # The next check pays the 600 s (saved), ``more`` staying owed; the process is killed
    # before its next heartbeat.
    world.clock.advance(5)
    with monkeypatch.context() as m:
        if more:
            m.setattr(svc.store, "set_deadline", more_owed)
        await svc.check_timers()
    if more:
        was, gap = svc.clock_state.owed[live.id]
        assert was == pytest.approx(deadline + 600, abs=0.01) and gap == more
    else:
        assert not svc.clock_state.owed
    assert db_row(db_path, live.id)["deadline"] == pytest.approx(deadline + 600, abs=0.01)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # 200 s left as the outage began, 15 s of them run since it ended; the time still owed
    # (noted at once, by match: ``alive.owed_to_note``) given with it, once.
    assert restored.deadline == pytest.approx(world.clock.now + 185 + more, abs=2), \
        "the outage's time was given twice at the restart, or the rest owed lost"
