"""The time-up question withdrawn (the absent player back, a move within the turn) whose edit
Discord refuses for now (a 5xx): it kept its buttons until clicked, or until a move days later
brought a delivery. Its edit is tried again at the clock's next check, until it is made or the
message is gone, and then never again (SimCord, virtual time). Another process's move
withdrawing it: tests/processes/test_question_saved_late.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.question import Question
from cogs.umtali.question_message import owes
from tests.discord_helpers import World, custom_ids, flush
from tests.test_clocks_question_mid_turn import questions, within_turn
from tests.test_faults_opening import server_errors  # noqa: F401  (a fixture)
from tests.test_faults_timers import db_row
from tests.time_control_helpers import time_up


def _edits(world: World, question: Any) -> int:
    path = f"/channels/{question.channel.id}/messages/{question.id}"
    return sum(r.method == "PATCH" and r.path == path for r in world.env.http_requests)


async def _withdrawn_unedited(world: World, db_path: Path) -> tuple[LiveMatch, Any]:
    """The question asked, then withdrawn by a move within the turn, its edit refused for now
    once: saved withdrawn, its buttons still on."""
    live, question = await time_up(world)
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, code=0, message="Unavailable", times=1)
    await within_turn(world, live)
    [shown] = questions(world, live)
    assert custom_ids(shown) and "is back at the table" not in shown.content
    saved = Question.loads(db_row(db_path, live.id)["question"])
    assert saved is not None and saved.withdrawn and saved.message_id == question.id
    return live, question


async def _checks(world: World, count: int) -> None:
    svc = world.bot.matches
    assert svc is not None
    for _ in range(count):
        world.clock.advance(1)
        await svc.check_timers()
        await flush(world)


@pytest.mark.usefixtures("server_errors")
async def test_a_withdrawn_question_whose_edit_failed_for_now_is_edited_at_the_next_check(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await _withdrawn_unedited(world, db_path)
    tried = _edits(world, question)
    await _checks(world, 1)
    [shown] = questions(world, live)
    assert not custom_ids(shown) and "is back at the table" in shown.content
    assert _edits(world, question) == tried + 1
    # Done: forgotten in the database and here, and never edited again.
    assert db_row(db_path, live.id)["question"] == "" and live.question == ""
    assert not owes(svc, live.id)
    await _checks(world, 3)
    assert _edits(world, question) == tried + 1
    assert live.deadline is not None and not live.over


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("status", [503, 404])
async def test_a_question_whose_edit_keeps_failing_is_tried_until_its_message_is_gone(
        world: World, db_path: Path, status: int) -> None:
    """A 5xx again: tried again at the next check. A 404 (deleted meanwhile): nothing to do,
    nothing more tried."""
    svc = world.bot.matches
    assert svc is not None
    live, question = await _withdrawn_unedited(world, db_path)
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=status, code=0 if status == 503 else 10008,
                           message="Unavailable" if status == 503 else "Unknown Message",
                           times=1)
    tried = _edits(world, question)
    await _checks(world, 1)
    assert _edits(world, question) == tried + 1
    assert owes(svc, live.id) is (status == 503)
    await _checks(world, 3)
    [shown] = questions(world, live)
    if status == 503:
        assert _edits(world, question) == tried + 2
        assert not custom_ids(shown) and "is back at the table" in shown.content
    else:
        assert _edits(world, question) == tried + 1
    assert not owes(svc, live.id) and live.question == ""
