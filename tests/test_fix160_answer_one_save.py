"""The time-up question and its answer are settled in one save (fix160): the question was
forgotten in a save of its own before the answer's, so a failed answer (or a bot stopped
between the two) left the database with the clock stopped and no question: the match was
asked a second time while the first still answered, memory ran ahead of the database. Two
answers racing from two processes' copies were both saved ("keep waiting" twice). SimCord, a
real SQLite file, a second process on it."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.time_up_answer import decide
from tests.discord_helpers import World, custom_ids, flush, player, thread_of
from tests.processes.helpers import main_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, time_up

ASKED = "time for this turn is up"


def _open_questions(world: World, live: LiveMatch) -> list[Any]:
    """The questions still showing their buttons."""
    return [m for m in thread_of(world, live).history() if ASKED in m.content and custom_ids(m)]


def _answer_fails(m: pytest.MonkeyPatch, svc: MatchService) -> None:
    """The answer's own save fails (the database locked past its busy timeout)."""
    async def locked(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database is locked")
    m.setattr(svc.store, "set_deadline", locked)
    m.setattr(svc.store, "finish_match", locked)


def _expected(caplog: pytest.LogCaptureFixture) -> None:
    for record in caplog.records:
        if record.levelno >= logging.ERROR and "interaction" in record.getMessage():
            record.expected = True  # the database failing, as meant


@pytest.mark.parametrize("action", ["wait", "claim"])
async def test_an_answer_not_saved_leaves_the_question_saved(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, action: str) -> None:
    live, question = await time_up(world)
    svc = main_of(world)
    asked = db_row(db_path, live.id)["question"]
    assert asked != "" and live.question == asked
    absent = live.session.to_act
    with monkeypatch.context() as m:
        _answer_fails(m, svc)
        failed = await player(world, 1 - absent).click(question,
                                                       custom_id=button(question, action))
        assert failed.acknowledged
    _expected(caplog)
    # Nothing of the answer saved, the question with it: as it was, in memory too.
    row = db_row(db_path, live.id)
    assert row["question"] == asked, "the question forgotten, its answer not saved"
    assert (row["status"], row["deadline"]) == ("active", None)
    assert live.question == asked and live.deadline is None and not live.over


async def test_a_bot_stopped_at_the_answer_leaves_the_question_to_its_restart(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, make_bot: Callable[[], UmtaliBot]) -> None:
    live, question = await time_up(world)
    svc = main_of(world)
    absent = live.session.to_act
    with monkeypatch.context() as m:
        _answer_fails(m, svc)  # (the process dies as it saves the answer)
        await player(world, 1 - absent).click(question, custom_id=button(question, "claim"))
    _expected(caplog)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    for k in range(1, 4):
        await again.matches.check_timers(now=world.clock.now + k)
        await flush(world)
    # The one question stands, not asked a second time, and answers.
    assert [m.id for m in _open_questions(world, restored)] == [question.id]
    claimed = await player(world, 1 - absent).click(question,
                                                    custom_id=button(question, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    row = db_row(db_path, live.id)
    assert (row["how"], row["question"]) == ("timed out", "")
    assert not _open_questions(world, restored)


async def test_of_two_answers_racing_from_two_processes_one_is_saved(
        world: World, db_path: Path, other: MatchService) -> None:
    live, _ = await time_up(world)
    main = main_of(world)
    version = live.version
    stale = await other.lookup(live.id)  # the second click's copy: read, the clock stopped
    assert stale is not None and stale.deadline is None
    assert await decide(main, live, version, claim=False)
    await flush(world)
    saved = db_row(db_path, live.id)
    assert saved["deadline"] == live.deadline and saved["question"] == ""
    assert live.question == ""
    # The other "keep waiting" goes on with its copy: refused, nothing saved.
    assert not await decide(other, stale, version, claim=False)
    assert db_row(db_path, live.id)["deadline"] == saved["deadline"], "a second answer saved"
    # Its copy brought up to date.
    assert stale.deadline == live.deadline and stale.question == ""


async def test_two_answers_racing_in_one_process_answer_once(world: World,
                                                            db_path: Path) -> None:
    live, _ = await time_up(world)
    main = main_of(world)
    version = live.version
    claimed, waited = await asyncio.gather(decide(main, live, version, claim=True),
                                           decide(main, live, version, claim=False))
    await flush(world)
    # The claim went first (the lock): the match over, the other answer refused.
    assert (claimed, waited) == (True, False)
    row = db_row(db_path, live.id)
    assert (row["status"], row["how"], row["question"]) == ("finished", "timed out", "")
    assert live.over and live.question == ""
