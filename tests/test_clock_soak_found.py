"""What the turn clock's soak (tests/test_clock_soak.py) found, each as its own small case, the
seed that found it named. Over SimCord, with time injected through the service's clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.clock_state import LATE
from cogs.umtali.time_control import HOUR
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import db_row
from tests.time_control_helpers import restarted_after, table_text


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("posted", [True, False], ids=["asked", "post failed"])
async def test_a_clock_stopped_after_its_reminder_is_unwarned_in_memory_as_saved(
        world: World, db_path: Path, posted: bool) -> None:
    """Seed 9: the turn reminded, its clock stops for the time-up question, saved unwarned
    (``leases.stop_clock``), and so too once the post failed and the clock runs on
    (``set_deadline``): memory kept the turn warned."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None
    deadline = live.deadline
    await svc.check_timers(now=deadline - 2 * HOUR + 1)
    await flush(world)
    assert live.warned and db_row(db_path, live.id)["warned"] == 1
    if not posted:
        world.env.inject_error("POST", f"/channels/{thread_of(world, live).id}/messages",
                               status=503, times=1)
    await svc.check_timers(now=deadline + LATE + 1)
    await flush(world)
    saved = db_row(db_path, live.id)
    assert (saved["deadline"], bool(saved["warned"])) == (live.deadline, live.warned)
    assert live.deadline is (None if posted else deadline)


@pytest.mark.usefixtures("server_errors")
async def test_a_table_edit_failed_before_a_restart_is_made_after_it(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    """Seed 13: the clock stops for the time-up question; Discord fails the table's edit that
    says so, and the bot restarts before it tries again. The table went on saying the turn
    runs, its deadline long past, until the next move."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None and live.table_message_id is not None
    world.env.inject_error(
        "PATCH", f"/channels/{live.channel_id}/messages/{live.table_message_id}",
        status=503, times=1)
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.deadline is None and "may claim" not in table_text(world, live)
    _, restored = await restarted_after(world, make_bot, live, 60)
    assert restored.deadline is None
    assert "may claim the session or keep waiting" in table_text(world, restored)
