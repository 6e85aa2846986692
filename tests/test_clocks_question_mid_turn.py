"""By correspondence, the absent player's first move within the turn the time-up question is
about (a draw, a meld) withdraws it: a fair table lets nobody claim the win from a player who is
playing. The question says the player is back, its buttons gone, and the turn has a fresh
turn's time from that move, as "keep waiting" gives it; if that runs out too, the question is
asked once more (not after each move: before, a move within the turn voided it and the next
check asked again at once). The withdrawal is saved with the move: a restart agrees. The move
that ends the turn voids a question too (tests/test_discord_time_up_void.py). Over SimCord."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import DAY
from tests.discord_helpers import World, custom_ids, flush, play, player, thread_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, db_deadline, restarted_after, time_up
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

ASKED = "time for this turn is up"


def questions(world: World, live: LiveMatch) -> list[Any]:
    return [m for m in thread_of(world, live).history() if ASKED in (m.content or "")]


async def within_turn(world: World, live: LiveMatch) -> None:
    """The absent player makes a move that does not end the turn (their draw), as a member
    does: from the DM panel."""
    absent = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    await play(world, live, move)
    await flush(world)
    assert live.mid_turn and live.session.to_act == absent


async def test_the_first_move_within_the_turn_withdraws_the_question(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    moved_at = world.clock()
    await within_turn(world, live)
    # The question says the player is back, in place, its buttons gone; the turn has a fresh
    # turn's time, saved.
    [shown] = questions(world, live)
    assert shown.id == question.id and not custom_ids(shown)
    assert "ada is back at the table and playing" in shown.content or \
        "ben is back at the table and playing" in shown.content
    assert live.deadline == pytest.approx(moved_at + DAY, abs=5)
    assert db_deadline(db_path, live.id) == live.deadline
    assert db_row(db_path, live.id)["question"] == "" and live.question == ""
    # Nobody is asked again meanwhile, however often the clock looks.
    for k in range(1, 4):
        await svc.check_timers(now=world.clock() + k)
        await flush(world)
    assert [m.id for m in questions(world, live)] == [question.id]
    assert not live.over and db_row(db_path, live.id)["status"] == "active"
    assert live.session.to_act == absent


async def test_the_fresh_time_run_out_too_asks_once_more_and_can_be_claimed(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    await within_turn(world, live)
    deadline = live.deadline
    assert deadline is not None
    # The fresh time runs out as well, the player gone again: asked once more, once.
    for k in range(4):
        await svc.check_timers(now=deadline + LATE + 1 + k)
        await flush(world)
    asked = questions(world, live)
    assert [m.id for m in asked][:1] == [question.id] and len(asked) == 2
    again = asked[-1]
    assert custom_ids(again) and live.deadline is None
    assert '"withdrawn": false' in db_row(db_path, live.id)["question"]
    # This one stands: the waiting player claims the win.
    claimed = await player(world, 1 - absent).click(again, custom_id=button(again, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    assert live.over and live.session.how == "timed out"
    assert (db_row(db_path, live.id)["status"], db_row(db_path, live.id)["how"]) == (
        "finished", "timed out")


async def test_a_withdrawal_not_shown_yet_outlives_a_restart(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live, question = await time_up(world)
    # Discord cannot edit the question for now: the withdrawal is saved all the same.
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, code=0, message="Unavailable")
    await within_turn(world, live)
    saved = db_row(db_path, live.id)
    assert '"withdrawn": true' in saved["question"] and saved["deadline"] is not None
    assert custom_ids(questions(world, live)[0])
    # Its buttons, still there, are answered privately: the question is no longer needed.
    late = await player(world, 1 - live.session.to_act).click(
        question, custom_id=button(question, "claim"))
    assert late.ephemeral and "no longer needed" in late.response.content
    await flush(world)
    assert not live.over
    # The bot stops and starts again a few minutes later: the turn gets that time back, and
    # the process brought back agrees that nothing stands: its table's edit says the player
    # is back, nobody is asked, and the click is refused.
    svc, restored = await restarted_after(world, make_bot, live, offline=300)
    assert restored.deadline is not None and restored.deadline >= saved["deadline"]
    for k in range(1, 4):
        await svc.check_timers(now=world.clock() + k)
        await flush(world)
    [shown] = questions(world, live)
    assert "is back at the table" in shown.content and not custom_ids(shown)
    assert db_row(db_path, live.id)["question"] == "" and not restored.over


async def test_a_question_asked_once_more_is_withdrawn_by_the_next_move_too(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    await within_turn(world, live)
    deadline = live.deadline
    assert deadline is not None
    # A day later, the player gone again.
    world.clock.advance(deadline + LATE + 1 - world.clock())
    await svc.check_timers()
    await flush(world)
    again = questions(world, live)[-1]
    assert again.id != question.id and custom_ids(again)
    # Back once more, within the same turn: that one is withdrawn as well, with another fresh
    # turn's time, and nobody is asked after the move.
    await within_turn(world, live)
    for k in range(1, 4):
        await svc.check_timers(now=world.clock() + k)
        await flush(world)
    asked = questions(world, live)
    assert [m.id for m in asked] == [question.id, again.id]
    assert all(not custom_ids(m) and "is back at the table" in m.content for m in asked)
    assert live.deadline is not None and live.deadline > deadline
    assert db_row(db_path, live.id)["question"] == ""
