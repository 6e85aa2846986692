"""The time-up question is saved after it is posted: what reached another process meanwhile (the
absent player's move within the turn, the waiting player's answer) decides, in the database,
whether it stands. Then the fresh time runs out: one new question, saved, claimable."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cogs.umtali import reminders, time_out
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.question import Question
from cogs.umtali.question_message import owes
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, player, start_match
from tests.processes.helpers import main_of, results, row, said, settle, via
from tests.test_faults_opening import server_errors  # noqa: F401  (a fixture)
from tests.time_control_helpers import button
from umtali.players import GreedyPlayer

ASKED = "time for this turn is up"


async def _run_out_again(world: World, main: MatchService, other: MatchService,
                         live: LiveMatch) -> Any:
    """The turn's time runs out again, both processes checking: the one question asked."""
    deadline = (await row(world, live.id))["deadline"]
    assert deadline is not None
    for k in range(3):
        now = deadline + LATE + 1 + k
        await asyncio.gather(main.check_timers(now=now), other.check_timers(now=now))
        await settle(world, main, other)
    asked = said(world, live, ASKED)
    saved = Question.loads((await row(world, live.id))["question"])
    assert saved is not None and not saved.withdrawn and saved.message_id == asked[-1].id
    assert custom_ids(asked[-1])
    return asked


async def _claimed(world: World, main: MatchService, other: MatchService, live: LiveMatch,
                   absent: int, question: Any) -> None:
    # Through the process that does not hold the match.
    claimed = await player(world, 1 - absent).click(question, custom_id=button(question,
                                                                               "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await settle(world, main, other)
    assert (await row(world, live.id))["status"] == "finished"
    assert [(r["match_id"], r["how"]) for r in await results(world)] == [
        (live.id, "timed out")]


def _moved_elsewhere_as_posted(other: MatchService, live: LiveMatch, absent: int,
                               then: Callable[[Any], None] | None = None
                               ) -> Callable[..., Awaitable[Any]]:
    """The time-up question's post, during which the absent player's move reaches the other
    process (``then``: done with the message posted)."""
    real = reminders.post

    async def posting(*args: Any, **kwargs: Any) -> Any:
        fresh = await other.lookup(live.id)
        assert fresh is not None
        move = GreedyPlayer().choose(fresh.session.view(absent))
        assert (await other.act(fresh, fresh.player_ids[absent], move, fresh.version)).ok
        posted = await real(*args, **kwargs)
        if then is not None:
            assert posted is not None
            then(posted)
        return posted

    return posting


async def test_a_move_elsewhere_while_it_is_posted_then_the_fresh_time_runs_out(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    real = reminders.post
    monkeypatch.setattr(time_out, "post", _moved_elsewhere_as_posted(other, live, absent))
    await main.check_timers(now=live.deadline + LATE + 1)
    await main.beside.idle()  # the question, asked beside the tick
    monkeypatch.setattr(time_out, "post", real)
    await settle(world, main, other)
    # Not saved standing over the move's fresh deadline: none, or withdrawn.
    saved = await row(world, live.id)
    assert saved["deadline"] is not None and saved["owner"] == "p2"
    stale = Question.loads(saved["question"])
    assert stale is None or stale.withdrawn, stale
    [first] = said(world, live, ASKED)
    # Its message says the player is back, as a withdrawal says it; the refusal is logged,
    # never as an error.
    assert "is back at the table" in first.content and not custom_ids(first)
    assert "no longer stands" in caplog.text
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    asked = await _run_out_again(world, main, other, live)
    assert len(asked) == 2 and asked[0].id == first.id
    await _claimed(world, main, other, live, absent, asked[-1])


async def test_an_answer_elsewhere_while_it_is_saved_leaves_it_answered(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Keep waiting" reaches the other process between the question's post and its save: the
    answer stands (its words on the question), the question is not saved standing; when that
    time runs out too, the new question is the one saved, and claims the win."""
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    real = reminders.post

    async def posting(*args: Any, **kwargs: Any) -> Any:
        posted = await real(*args, **kwargs)
        [shown] = said(world, live, ASKED)
        with via(world, other):
            kept = await player(world, 1 - absent).click(shown, custom_id=button(shown, "wait"))
        assert kept.acknowledged and not kept.ephemeral
        return posted

    monkeypatch.setattr(time_out, "post", posting)
    await main.check_timers(now=live.deadline + LATE + 1)
    await main.beside.idle()  # the question, asked beside the tick
    monkeypatch.setattr(time_out, "post", real)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["deadline"] is not None and saved["owner"] == "p2"
    assert Question.loads(saved["question"]) is None
    [first] = said(world, live, ASKED)
    assert "keeps waiting" in first.content and not custom_ids(first)
    asked = await _run_out_again(world, main, other, live)
    assert len(asked) == 2 and asked[0].id == first.id
    await _claimed(world, main, other, live, absent, asked[-1])


@pytest.mark.usefixtures("server_errors")
async def test_saved_withdrawn_and_its_edit_failing_for_now_it_is_edited_at_the_next_check(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move reached the other process while the question was posted: saved withdrawn by
    the asking process, whose edit saying so Discord refuses for now (a 5xx). The match is
    the other process's now, whose copy never knew of the question: the asking process edits
    it at its clock's next check, once."""
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent, deadline = live.session.to_act, live.deadline
    assert deadline is not None
    real = reminders.post

    def refuse_its_edit(posted: Any) -> None:
        world.env.inject_error("PATCH", f"/channels/{posted.channel.id}/messages/{posted.id}",
                               status=503, code=0, message="Unavailable", times=1)

    monkeypatch.setattr(time_out, "post",
                        _moved_elsewhere_as_posted(other, live, absent, refuse_its_edit))
    await main.check_timers(now=deadline + LATE + 1)
    await main.beside.idle()  # the question, asked beside the tick
    monkeypatch.setattr(time_out, "post", real)
    await settle(world, main, other)
    [first] = said(world, live, ASKED)
    stale = Question.loads((await row(world, live.id))["question"])
    assert stale is not None and stale.withdrawn and custom_ids(first)
    assert (await row(world, live.id))["owner"] == "p2" and owes(main, live.id)
    for k in range(2, 5):
        now = world.clock() + k
        await asyncio.gather(main.check_timers(now=now), other.check_timers(now=now))
        await settle(world, main, other)
    [first] = said(world, live, ASKED)
    assert "is back at the table" in first.content and not custom_ids(first)
    assert (await row(world, live.id))["question"] == "" and not owes(main, live.id)
    edits = [r for r in world.env.http_requests
             if r.method == "PATCH" and r.path.endswith(f"/messages/{first.id}")]
    assert len(edits) == 2  # the one refused, and the one made
