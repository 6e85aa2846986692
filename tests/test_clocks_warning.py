"""The one-minute warning against Discord failing: a warning whose post fails for now (a 5xx)
is tried again at the next check, before the deadline, and sent once (SimCord, virtual time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_faults_opening import server_errors  # noqa: F401  (a fixture)
from tests.test_faults_timers import db_row

WARNED = "seconds left for your turn"


def _warnings(world: World, live: LiveMatch) -> int:
    return sum(WARNED in m.content for m in thread_of(world, live).history())


@pytest.mark.usefixtures("server_errors")
async def test_a_warning_that_failed_for_now_is_sent_at_the_next_check(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    world.env.inject_error("POST", f"/channels/{thread_of(world, live).id}/messages",
                           status=503, times=1)
    await svc.check_timers(now=deadline - 30)
    await flush(world)
    assert _warnings(world, live) == 0
    # Not counted as sent: in memory as in the database, the warning is still to come.
    assert not live.warned and db_row(db_path, live.id)["warned"] == 0
    await svc.check_timers(now=deadline - 29)
    await flush(world)
    assert _warnings(world, live) == 1
    assert live.warned and db_row(db_path, live.id)["warned"] == 1
    await svc.check_timers(now=deadline - 28)
    await flush(world)
    assert _warnings(world, live) == 1
    assert live.deadline == deadline and not live.over
