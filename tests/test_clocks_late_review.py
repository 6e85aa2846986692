"""Review of the late-move clock (``cogs/umtali/clock_state.py``): a move is judged, and its
reserve spent, by one deadline, the clock's; and a practice by correspondence, whose turn run
out forfeits, refuses a move made after its deadline as other forfeiting clocks do."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.question import Question
from tests.discord_helpers import World, flush, play, start_match, thread_of
from tests.test_clocks_connect import restarted_slowly
from tests.test_faults_timers import db_row
from tests.test_practice_correspondence import _humans_turn
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_turn_ended_before_the_first_check_keeps_its_reserve(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped 70 s into a blitz turn (its own 30 s gone, 40 s of the 120 s reserve spent),
    back at once but slow to connect (150 s): a turn ended once connected, before the first
    check, spends no reserve for the connecting (it is in time for that reason too)."""
    live = await start_match(world, time_control="blitz")
    seat = live.session.to_act
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 80)
    while not restored.over and restored.session.to_act == seat:
        await play(world, restored, GreedyPlayer().choose(restored.session.view(seat)))
    assert not restored.over and restored.session.to_act == 1 - seat
    assert restored.reserves[seat] == pytest.approx(80, abs=2)
    assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(80, abs=2)
    await svc.check_timers()
    await flush(world)
    assert not restored.over


@pytest.mark.simcord(settle_timeout=30)  # the computer thinks in real worker processes
async def test_a_practice_by_correspondence_refuses_a_move_made_after_its_day(
        world: World, db_path: Path) -> None:
    """The day ran out 10 s ago and the clock has not checked since: the move is refused
    (privately, nothing changed), and the check forfeits the turn, as in blitz."""
    svc = world.bot.matches
    assert svc is not None
    live = await _humans_turn(world)
    human, version, deadline = live.session.to_act, live.version, live.deadline
    assert deadline is not None
    world.clock.now = deadline + 10
    move = GreedyPlayer().choose(live.session.view(human))
    answer = await world.alice.slash(thread_of(world, live), "umtali play", move=str(move))
    assert answer.ephemeral and "Your time ran out" in answer.response.content
    assert live.version == version == db_row(db_path, live.id)["version"] and not live.over
    await svc.check_timers()
    await flush(world)
    assert live.over and live.session.winner == 1 - human


@pytest.mark.parametrize("control", ["turn timer", "blitz"])
async def test_a_move_that_arrived_in_time_is_not_refused_for_waiting_on_the_match(
        world: World, db_path: Path, control: str) -> None:
    """A move reaching the bot 5 s before the deadline waits for the match (a save under way,
    a click before it) until 10 s after: it arrived in time, and is played; in blitz, the
    discard ending the turn keeps the 5 s of reserve it had when it arrived."""
    live = await start_match(world, **({"time_control": "blitz"} if control == "blitz"
                                       else {"turn_timer": 30}))
    seat = live.session.to_act
    if control == "blitz":
        while GreedyPlayer().choose(live.session.view(seat)).kind is not MoveKind.DISCARD:
            await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    version = live.version
    assert live.deadline is not None
    deadline = live.deadline
    world.clock.now = deadline - 5
    move = GreedyPlayer().choose(live.session.view(seat))
    actor = (world.alice, world.bob)[seat]
    async with live.lock:
        sent = asyncio.create_task(actor.slash(thread_of(world, live), "umtali play",
                                               move=str(move)))
        for _ in range(200):
            if getattr(live.lock, "_waiters", None):
                break
            await asyncio.sleep(0.01)
        assert getattr(live.lock, "_waiters", None), "the move never reached the match"
        world.clock.now = deadline + 10
    answer = await sent
    assert answer.response is None or "Your time ran out" not in answer.response.content
    assert live.version == version + 1 == db_row(db_path, live.id)["version"]
    assert not live.over
    if control == "blitz":
        assert live.session.to_act == 1 - seat
        assert live.reserves[seat] == pytest.approx(5, abs=0.1)
        assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(5, abs=0.1)


@pytest.mark.simcord(settle_timeout=30)  # the computer thinks in real worker processes
async def test_a_practice_hung_on_a_question_to_the_computer_forfeits(
        world: World, db_path: Path) -> None:
    """A practice by correspondence saved by a version that asked the computer the time-up
    question (clock stopped, never answered) is run out again, and forfeits."""
    svc = world.bot.matches
    assert svc is not None
    live = await _humans_turn(world)
    human, deadline = live.session.to_act, live.deadline
    assert deadline is not None
    # As the old version left it: the clock stopped, the question asked of the computer.
    async with live.lock:
        assert await svc.owners.leases.stop_clock(live.id, live.version)
        live.deadline = None
        asked = Question(live.channel_id, 1, live.version, human, False).dumps()
        assert await svc.owners.leases.set_question(live.id, asked, live.question)
        live.question = asked
    await svc.check_timers(now=deadline + 3600)
    await svc.check_timers(now=deadline + 3601)
    await flush(world)
    assert live.over and live.session.winner == 1 - human
    assert db_row(db_path, live.id)["status"] == "finished"
