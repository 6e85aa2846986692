"""The time given back after a gateway outage, on its fault paths: a save of it that fails is
owed (the turn not judged meanwhile) and paid at a later check, never lost to a forfeit; and an
outage under way at the first check after a restart is not given twice (once as time spent
connecting, once as the outage). SimCord, virtual time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, start_match
from tests.test_clocks_connect import restarted_slowly
from tests.test_faults_timers import db_row

#: How long the gateway is down.
OUTAGE = 600.0


def failing(monkeypatch: pytest.MonkeyPatch, store: Any, times: int) -> None:
    """``store.set_deadline`` fails ``times`` times (the database busy, a connection lost)."""
    real = store.set_deadline
    left = [times]

    async def set_deadline(*args: Any, **kwargs: Any) -> bool:
        if left[0] > 0:
            left[0] -= 1
            raise OSError("the database is unreachable")
        return bool(await real(*args, **kwargs))

    monkeypatch.setattr(store, "set_deadline", set_deadline)


@pytest.mark.parametrize("failures", [1, 3])
async def test_time_owed_after_a_failed_save_is_paid_later_not_forfeited(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, failures: int) -> None:
    live = await start_match(world, turn_timer=5)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    world.clock.now = deadline - 10  # 10 s left when the connection drops
    gateway_lost(svc, None)
    world.clock.advance(OUTAGE)
    failing(monkeypatch, svc.store, failures)
    await gateway_back(svc, None)
    # The save failed: nothing changed, in memory as in the database...
    assert live.deadline == deadline and db_row(db_path, live.id)["deadline"] == deadline
    # ... and the turn, past its old deadline, is not judged until its time is paid.
    for _ in range(failures):
        await svc.check_timers()
        assert not live.over, "forfeited for the outage, its time not given back"
    assert live.deadline == pytest.approx(deadline + OUTAGE)
    assert db_row(db_path, live.id)["deadline"] == live.deadline
    # Paid once: the clock runs on from there.
    await svc.check_timers()
    assert live.deadline == pytest.approx(deadline + OUTAGE) and not live.over
    assert live.deadline - world.clock.now == pytest.approx(10)


async def test_an_outage_under_way_at_the_first_check_is_given_back_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=5)
    # Last alive with 100 s left; back later, slow to connect.
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    # Connected, then the connection drops before the first check, and comes back later.
    gateway_lost(svc, None)
    world.clock.advance(100)
    await svc.check_timers()  # the first check, with the outage under way
    world.clock.advance(100)
    await gateway_back(svc, None)
    await svc.check_timers()
    # Every second since the restart was given back once: the turn still has its 100 s.
    assert not restored.over
    assert restored.deadline == pytest.approx(world.clock.now + 100, abs=1)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline
