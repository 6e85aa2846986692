"""By correspondence, the time-up question stands through the absent player's moves within
their turn (a draw, a meld): such a move voided it ("no longer needed"), and the clock's next
check, finding the turn's clock stopped with no question, asked it again at once, the waiting
player pinged by a new question after each move of the turn. The move that ends the turn
voids it (tests/test_discord_time_up_void.py). Over SimCord."""

from __future__ import annotations

from pathlib import Path

from tests.discord_helpers import World, custom_ids, flush, player, thread_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, time_up
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_move_within_the_turn_leaves_the_question_standing(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    asked = db_row(db_path, live.id)["question"]
    # The absent player is back: they draw, and the turn goes on.
    move = GreedyPlayer().choose(live.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    assert (await svc.act(live, live.player_ids[absent], move)).ok
    await flush(world)
    assert live.mid_turn and live.session.to_act == absent
    for k in range(1, 4):
        await svc.check_timers(now=world.clock() + k)
        await flush(world)
    said = [m for m in thread_of(world, live).history()
            if "time for this turn is up" in (m.content or "")]
    assert [m.id for m in said] == [question.id], "asked again in the middle of the turn"
    assert "no longer needed" not in said[0].content and custom_ids(said[0])
    assert db_row(db_path, live.id)["question"] == asked and live.deadline is None
    # The question still answers: the waiting player claims the win.
    waiting = player(world, 1 - absent)
    claimed = await waiting.click(question, custom_id=button(question, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    assert live.over and live.session.how == "timed out"
    assert (db_row(db_path, live.id)["status"], db_row(db_path, live.id)["how"]) == (
        "finished", "timed out")
