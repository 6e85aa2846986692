"""A correspondence turn's time-up question failed in the channel here (for now, short of
``CHANNEL_TRIES``), then was asked by another process, which had taken the match, and the
waiting player kept waiting there. The match back here, the turn's next time-up is another
asking: its failures in the channel count anew, not on from those before (the same turn and
version: "keep waiting" keeps both), which would send it to the DMs a failure early."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.question import Question
from cogs.umtali.service import MatchService
from cogs.umtali.time_out import CHANNEL_TRIES
from tests.discord_helpers import World, player, start_match, thread_of
from tests.processes.helpers import main_of, row, settle, via
from tests.processes.test_given_back_copy_read_before import table_again
from tests.processes.test_unheard_question_clock import ASKED, _asked
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.time_control_helpers import button


def _in_dms(world: World, live: LiveMatch, absent: int) -> int:
    dm = player(world, 1 - absent).user.dm_channel
    return len([m for m in dm.history() if ASKED in m.content])


def _fails_in_channel(world: World, live: LiveMatch, times: int) -> None:
    world.env.inject_error("POST", f"/channels/{live.channel_id}/messages", status=503,
                           message="Unavailable", times=times)


@pytest.mark.usefixtures("server_errors")
async def test_a_question_asked_elsewhere_counts_its_next_failures_anew(
        world: World, other: MatchService, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    absent = live.session.to_act
    # Here, the question fails in the channel one time short of going to the DMs.
    _fails_in_channel(world, live, CHANNEL_TRIES - 1)
    for n in range(1, CHANNEL_TRIES):
        await main.check_timers(now=deadline + LATE + n)
        await settle(world, main)
    assert not live.question and _asked(world, live) == 0 and _in_dms(world, live, absent) == 0
    assert (await row(world, live.id))["deadline"] == deadline, "its clock was not run on"
    # The other process takes the match (``/umtali table`` there), and asks it.
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    await table_again(world, other, copy)
    await settle(world, main, other)
    world.clock.advance(5)  # (within the leases: "keep waiting" gives the turn a new time)
    now = deadline + LATE + 30
    await other.check_timers(now=now)
    await main.check_timers(now=now)  # (renewing, it lets its copy go)
    await settle(world, main, other)
    assert live.id not in main.matches
    assert _asked(world, live) == 1, "not asked by the other process"
    question = next(m for m in thread_of(world, live).history() if ASKED in m.content)
    with via(world, other):
        answer = await player(world, 1 - absent).click(question,
                                                       custom_id=button(question, "wait"))
    assert answer.acknowledged and not answer.ephemeral
    await settle(world, main, other)
    kept = (await row(world, live.id))["deadline"]
    assert kept is not None and kept > deadline
    # The match back here, by the copy it held before (``/umtali table`` here).
    await table_again(world, main, live)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == main.owners.name
    assert main.matches.get(live.id) is live and live.deadline == kept
    # The turn's time runs out again; the question fails in the channel once: tried there
    # again, not sent to the DMs.
    _fails_in_channel(world, live, 1)
    await main.check_timers(now=kept + LATE + 1)
    await settle(world, main, other)
    assert _in_dms(world, live, absent) == 0, \
        "sent to the DMs after one failure in the channel (counted on from before)"
    await main.check_timers(now=kept + LATE + 2)
    await settle(world, main, other)
    asked = Question.loads(live.question)
    assert asked is not None and not asked.in_dm and _asked(world, live) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
