"""The time-up question withdrawn by the absent player's move within the turn
(tests/test_clocks_question_mid_turn.py), against faults and races: a question asked and not
saved, a withdrawal whose edit Discord keeps refusing when the fresh time runs out too, and
the waiting player's claim meeting the absent player's move, in either order. Over SimCord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali import reminders, time_out
from cogs.umtali.clock_state import LATE
from cogs.umtali.time_up_answer import decide
from tests.discord_helpers import (
    World,
    custom_ids,
    dm_panel,
    flush,
    player,
    start_match,
    thread_of,
)
from tests.test_clocks_question_mid_turn import questions, within_turn
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, question_unsaved_once, time_up
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_question_asked_and_not_saved_is_withdrawn_not_asked_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None
    failed = question_unsaved_once(monkeypatch, svc)
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    [question] = questions(world, live)
    assert failed == [1] and db_row(db_path, live.id)["question"] == ""
    # The absent player is back: a move within the turn. The question, known here alone, is
    # withdrawn as a saved one is; nobody is asked a second time.
    await within_turn(world, live)
    for k in range(1, 4):
        await svc.check_timers(now=world.clock() + k)
        await flush(world)
    [shown] = questions(world, live)
    assert shown.id == question.id and not custom_ids(shown)
    assert "is back at the table" in shown.content
    assert live.deadline is not None and db_row(db_path, live.id)["deadline"] == live.deadline


async def test_a_move_while_the_question_is_posted_withdraws_it_at_once(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    real = reminders.post

    async def posting(*args: Any, **kwargs: Any) -> Any:
        # The clock stopped; while the question is on its way, the absent player moves
        # within the turn.
        move = GreedyPlayer().choose(live.session.view(absent))
        assert move.kind is not MoveKind.DISCARD
        assert (await svc.act(live, live.player_ids[absent], move, live.version)).ok
        return await real(*args, **kwargs)

    monkeypatch.setattr(time_out, "post", posting)
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    monkeypatch.setattr(time_out, "post", real)
    # Asked, and withdrawn at once: it says the player is back, buttons off; the turn has its
    # fresh time, and nobody is asked again.
    for k in range(1, 4):
        await svc.check_timers(now=world.clock() + k)
        await flush(world)
    [shown] = questions(world, live)
    assert "is back at the table" in shown.content and not custom_ids(shown)
    assert live.deadline is not None and db_row(db_path, live.id)["deadline"] == live.deadline
    assert db_row(db_path, live.id)["question"] == "" and live.session.to_act == absent


async def test_a_withdrawn_question_stands_no_more_when_the_fresh_time_runs_out(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    # Discord refuses every edit of the first question: withdrawn, it keeps its buttons.
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, code=0, message="Unavailable", times=None)
    await within_turn(world, live)
    deadline = live.deadline
    assert deadline is not None and custom_ids(questions(world, live)[0])
    real = reminders.post
    clicked: list[Any] = []

    async def asking(*args: Any, **kwargs: Any) -> Any:
        # The fresh time ran out, the clock stopped: while the new question is posted, the
        # waiting player clicks the first one's claim.
        clicked.append(await waiting.click(question, custom_id=button(question, "claim")))
        return await real(*args, **kwargs)

    monkeypatch.setattr(time_out, "post", asking)
    await svc.check_timers(now=deadline + LATE + 1)
    await flush(world)
    [late] = clicked
    assert late.ephemeral and "no longer needed" in late.response.content
    assert not live.over and db_row(db_path, live.id)["status"] == "active"
    assert len(questions(world, live)) == 2


def _move_within(world: World, live: Any) -> Any:
    """The absent player's move within the turn, made as a member makes it (not awaited)."""
    absent = live.session.to_act
    actor = player(world, absent)
    move = GreedyPlayer().choose(live.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    if move.kind is MoveKind.DRAW:
        return actor.user.click(dm_panel(actor, live, absent),
                                custom_id=f"umtali:m:{live.id}:{live.version}:draw")
    return actor.slash(thread_of(world, live), "umtali play", move=str(move))


@pytest.mark.parametrize("claim_first", [True, False])
async def test_a_claim_and_a_move_at_once_one_wins(
        world: World, db_path: Path, claim_first: bool) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, _ = await time_up(world)
    absent, version = live.session.to_act, live.version
    move = GreedyPlayer().choose(live.session.view(absent))
    # SimCord plays one click at a time: the race is run on what each click calls, under the
    # match's lock, the one or the other first.
    claim = decide(svc, live, version, True)
    act = svc.act(live, live.player_ids[absent], move, version)
    if claim_first:
        claimed, moved = await asyncio.gather(claim, act)
    else:
        moved, claimed = await asyncio.gather(act, claim)
    await flush(world)
    saved = db_row(db_path, live.id)
    assert claimed is claim_first and moved.ok is not claim_first
    if claim_first:
        assert (saved["status"], saved["how"], saved["version"]) == ("finished", "timed out",
                                                                     version)
        assert live.over and moved.error is not None
    else:
        assert (saved["status"], saved["version"]) == ("active", version + 1)
        assert saved["deadline"] is not None and saved["deadline"] == live.deadline
        assert not live.over and live.mid_turn


async def test_a_claim_then_the_absent_players_move(world: World, db_path: Path) -> None:
    live, question = await time_up(world)
    move = _move_within(world, live)
    claimed = await player(world, 1 - live.session.to_act).click(
        question, custom_id=button(question, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    # Too late: the move (typed here) is answered privately that there is no match in play;
    # nothing is played.
    moved = await move
    assert moved.ephemeral and any(said in (moved.response.content or "") for said in (
        "This match is over", "You are not playing a match"))
    await flush(world)
    saved = db_row(db_path, live.id)
    assert (saved["status"], saved["how"], saved["version"]) == ("finished", "timed out", 0)


async def test_the_absent_players_move_then_a_claim(world: World, db_path: Path) -> None:
    live, question = await time_up(world)
    # Discord slow to edit the question: its buttons are still there to click.
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, code=0, message="Unavailable")
    moved = await _move_within(world, live)
    assert moved.acknowledged
    await flush(world)
    claimed = await player(world, 1 - live.session.to_act).click(
        question, custom_id=button(question, "claim"))
    assert claimed.ephemeral and "no longer needed" in claimed.response.content
    await flush(world)
    saved = db_row(db_path, live.id)
    assert (saved["status"], saved["version"]) == ("active", 1) and not live.over
