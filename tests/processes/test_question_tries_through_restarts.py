"""A correspondence turn's time-up question failing in the channel for now, its clock's restart
failing too (the database busy): each check runs the clock out anew (``time_out.ask_again``),
at a new deadline, and the question still reaches the waiting player's DMs once the channel has
failed ``CHANNEL_TRIES`` times for it (the failures counted by turn and version, not by
deadline)."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.question import Question
from cogs.umtali.time_out import CHANNEL_TRIES
from tests.discord_helpers import World, player, start_match
from tests.processes.helpers import main_of, settle
from tests.processes.test_unheard_question_clock import ASKED, _asked, busy_at
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("restarts_failing", [1, CHANNEL_TRIES - 1], ids=["once", "each time"])
async def test_a_question_failing_in_the_channel_reaches_the_dms_whatever_the_restarts(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        restarts_failing: int) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    deadline = live.deadline
    assert deadline is not None
    absent = live.session.to_act
    world.env.inject_error("POST", f"/channels/{live.channel_id}/messages", status=503,
                           message="Unavailable", times=CHANNEL_TRIES)
    # The clock's restart after a failed ask fails too: once, or after each failed ask (the
    # last is asked in the DMs: nothing to restart).
    fails = busy_at(monkeypatch, main.store.db, restarts_failing)
    for n in range(1, CHANNEL_TRIES + 1):
        assert not live.question, f"asked after {n - 1} failure(s)"
        await main.check_timers(now=deadline + LATE + n)
        await settle(world, main)
    assert fails == [0], "the clock's restart did not fail as meant"
    question = Question.loads(live.question)
    assert question is not None and question.in_dm, \
        f"not asked in the DMs after {CHANNEL_TRIES} failures in the channel"
    dm = player(world, 1 - absent).user.dm_channel
    assert len([m for m in dm.history() if ASKED in m.content]) == 1
    assert _asked(world, live) == 0 and not live.over
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
