"""A payment of a database outage's time whose answer was lost (its COMMIT gone through),
then a second outage before it is paid again: what is owed (W, both outages) is paid on the
deadline memory still has, W, while the row already ends at W + the first (review137). The
guard meant to save the lost payment only once (``resume_turn(was=…)``) refused it, the time
owed was dropped as "moved on", memory fell behind the row, and the turn ended at W."""

from __future__ import annotations

import pytest

from cogs.umtali.clock_state import LATE
from tests.discord_helpers import World, flush, start_match
from tests.test_clocks_database_outage import Writes, down_for, lose_first_payment


async def test_a_lost_payment_then_a_second_outage_is_paid_whole(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    writes = Writes(world, monkeypatch)

    def flapping() -> None:
        writes.down = True  # the database flapping: down again at once

    lose_first_payment(world, monkeypatch, then=flapping)
    await down_for(world, writes, deadline - 200, deadline - 160)
    row = await svc.store.match(live.id)
    assert row is not None and row.deadline is not None
    first = row.deadline - deadline
    assert live.deadline == deadline and first > 30  # the answer lost: memory behind
    for t in (deadline - 159, deadline - 150, deadline - 140, deadline - 130):
        world.clock.now = t
        await svc.check_timers(now=t)
    writes.down = False
    for t in (deadline - 100, deadline - 99, deadline - 98):
        world.clock.now = t
        await svc.check_timers(now=t)
        await flush(world)
    row = await svc.store.match(live.id)
    assert row is not None and row.deadline is not None
    # Memory and the row agree, with both outages' time.
    assert live.deadline == pytest.approx(row.deadline, abs=1e-6)
    assert row.deadline - deadline > first + 25, (first, row.deadline - deadline)
    world.clock.now = deadline + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over, "forfeited at the deadline before both outages"
