"""The clocks of a match with two processes about: a turn's timer fires in exactly one, and the
correspondence time-up question is asked, answered, withdrawn and voided through either
(docs/processes.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.claims import LEASE
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, start_match
from tests.processes.helpers import greedy_via, main_of, results, row, said, settle, via
from umtali.moves import MoveKind


async def test_a_timer_fires_in_exactly_one_process(
        world: World, other: MatchService) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    assert live.deadline is not None
    deadline = live.deadline
    # The first process stops renewing (paused, say): its lease runs out and the other
    # process takes the match over.
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    assert (await row(world, live.id))["owner"] == "p2"
    theirs = other.matches[live.id]
    # It never noted when it was last alive; its last renewal of the lease tells: the turn
    # gets back the time since.
    assert theirs.deadline is not None
    assert theirs.deadline == pytest.approx(deadline + LEASE + 1, abs=1)
    deadline = theirs.deadline
    # The first process has not renewed yet and still has its copy: its timers do nothing.
    main.owners._renewed_at = world.clock()
    before = len(said(world, live, "seconds left"))
    await main.warn_if_due(live, deadline - 30)
    assert not await main.forfeit_if_late(live, deadline + LATE + 1)
    await settle(world, main, other)
    assert len(said(world, live, "seconds left")) == before
    assert (await row(world, live.id))["status"] == "active"
    # Both processes tick through the warning and the deadline: one warning, one forfeit.
    for now in (deadline - 30, deadline - 29, deadline + LATE + 1, deadline + LATE + 2):
        await asyncio.gather(main.check_timers(now=now), other.check_timers(now=now))
        await settle(world, main, other)
    assert len(said(world, live, "seconds left")) == before + 1
    assert theirs.over and theirs.session.how == "timed out"
    assert len(said(world, live, "timed out")) == 1
    assert [r["match_id"] for r in (await results(world))] == [live.id]
    assert live.id not in main.matches


async def test_the_time_up_question_answered_through_another_process(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import custom_ids, thread_of

    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    await asyncio.gather(main.check_timers(now=live.deadline + LATE + 1),
                         other.check_timers(now=live.deadline + LATE + 1))
    await settle(world, main, other)
    thread = thread_of(world, live)

    def questions() -> list[Any]:
        return [m for m in thread.history() if "time for this turn is up" in (m.content or "")]

    [question] = questions()
    waiting = player(world, 1 - absent)
    # "Keep waiting" reaches the other process: it gives the time, and holds the match.
    with via(world, other):
        kept = await waiting.click(question, custom_id=next(
            c for c in custom_ids(question) if c.endswith(":wait")))
        assert kept.acknowledged and not kept.ephemeral
        await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "p2"
    deadline = (await row(world, live.id))["deadline"]
    assert deadline is not None
    # That time runs out too: asked once more, by the holder alone.
    for svc in (main, other, main):
        await svc.check_timers(now=deadline + LATE + 1)
        await settle(world, main, other)
    assert len(questions()) == 2
    again = questions()[-1]
    # The claim reaches the first process: the session ends there, its result counted once.
    claimed = await waiting.click(again, custom_id=next(
        c for c in custom_ids(again) if c.endswith(":claim")))
    assert claimed.acknowledged and not claimed.ephemeral
    await settle(world, main, other)
    assert (await row(world, live.id))["status"] == "finished"
    assert [(r["match_id"], r["how"]) for r in (await results(world))] == [(live.id, "timed out")]


async def _time_up(world: World, other: MatchService) -> tuple[LiveMatch, Any]:
    """A correspondence match whose turn ran out: the waiting player asked what to do (by the
    first process, which holds it); the match and the question."""
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None
    await main.check_timers(now=live.deadline + LATE + 1)
    await settle(world, main, other)
    [question] = said(world, live, "time for this turn is up")
    return live, question


async def test_the_time_up_question_is_voided_by_a_move_through_another_process(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    live, question = await _time_up(world, other)
    assert (await row(world, live.id))["question"] != ""
    # The absent player's turn reaches the other process, which loads the match (the question
    # with it) from the database: at the turn's end, that process says the question is no
    # longer needed.
    absent = live.session.to_act
    while (await row(world, live.id))["question"] != "":
        assert (await other.lookup(live.id)).session.to_act == absent  # type: ignore[union-attr]
        await greedy_via(world, other, live.id)
        await settle(world, main, other)
    [shown] = said(world, live, "time for this turn is up")
    assert shown.id == question.id and "no longer needed" in shown.content
    assert shown.components == []
    assert (await row(world, live.id))["question"] == ""


async def test_the_time_up_question_is_withdrawn_by_a_move_through_another_process(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    live, question = await _time_up(world, other)
    # The absent player's first move within the turn reaches the other process: saved there
    # with the question withdrawn and a fresh turn's time, and the question says so.
    move = await greedy_via(world, other, live.id)
    assert move.kind is not MoveKind.DISCARD
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved["deadline"] is not None
    [shown] = said(world, live, "time for this turn is up")
    assert shown.id == question.id and "is back at the table" in shown.content
    assert shown.components == [] and saved["question"] == ""
    # Both processes agree nobody is to be asked, until the fresh time runs out too: then
    # asked once more, once.
    for now in (world.clock() + 1, world.clock() + 2):
        await asyncio.gather(main.check_timers(now=now), other.check_timers(now=now))
        await settle(world, main, other)
    assert len(said(world, live, "time for this turn is up")) == 1
    deadline = saved["deadline"]
    for k in range(3):
        await asyncio.gather(main.check_timers(now=deadline + LATE + 1 + k),
                             other.check_timers(now=deadline + LATE + 1 + k))
        await settle(world, main, other)
    assert len(said(world, live, "time for this turn is up")) == 2
    assert (await row(world, live.id))["status"] == "active"


async def test_a_claim_on_a_stale_copy_loses_to_a_move_saved_elsewhere(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import custom_ids

    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    await main.check_timers(now=live.deadline + LATE + 1)
    await settle(world, main, other)
    [question] = said(world, live, "time for this turn is up")
    # Discord slow to edit the question: its buttons still there.
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, code=0, message="Unavailable")
    # The move is saved through the other process; the claim reaches the first, whose copy
    # still has the question standing: the version decides, the claim refused privately.
    await greedy_via(world, other, live.id)
    claimed = await player(world, 1 - absent).click(question, custom_id=next(
        c for c in custom_ids(question) if c.endswith(":claim")))
    assert claimed.ephemeral and "no longer needed" in claimed.response.content
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["status"], saved["version"]) == ("active", 1) and saved["deadline"] is not None
    assert await results(world) == []
