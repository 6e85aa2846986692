"""A correspondence turn's time-up question, answered (``cogs/umtali/time_up_answer.py``):
an answer whose save fails leaves the one question standing (not asked a second time), and the
answer says until when the absent player has, as a date (SimCord, virtual time)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, custom_ids, flush, player, thread_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, time_up

ASKED = "time for this turn is up"


def _open_questions(world: World, live: LiveMatch) -> list[Any]:
    """The questions still showing their buttons."""
    return [m for m in thread_of(world, live).history() if ASKED in m.content and custom_ids(m)]


@pytest.mark.parametrize("action", ["wait", "claim"])
async def test_an_answer_that_cannot_be_saved_leaves_the_one_question_standing(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, action: str) -> None:
    live, question = await time_up(world)
    svc = world.bot.matches
    assert svc is not None
    absent = live.session.to_act

    async def locked(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database is locked")

    # The answer's own save fails (the question was forgotten just before).
    with monkeypatch.context() as m:
        m.setattr(svc.store, "set_deadline", locked)
        m.setattr(svc.store, "finish_match", locked)
        failed = await player(world, 1 - absent).click(question,
                                                       custom_id=button(question, action))
        assert failed.acknowledged
    for record in caplog.records:
        if record.levelno >= logging.ERROR and "interaction" in record.getMessage():
            record.expected = True  # the database failing, as meant
    assert not live.over and live.deadline is None
    for k in range(1, 4):
        await svc.check_timers(now=world.clock.now + k)
        await flush(world)
    # Not asked a second time: the question asked still stands, and answers.
    assert [m.id for m in _open_questions(world, live)] == [question.id]
    again = await player(world, 1 - absent).click(question, custom_id=button(question, action))
    assert again.acknowledged and not again.ephemeral
    await flush(world)
    if action == "claim":
        assert live.over and db_row(db_path, live.id)["how"] == "timed out"
    else:
        assert live.deadline is not None and db_row(db_path, live.id)["deadline"] == live.deadline
    assert not _open_questions(world, live)

