"""Issue 12, correspondence: the time-up question voided when the absent player ends their turn
at last (its buttons gone, nothing left saved), through a restart, later when Discord could not
edit it at once, and forgotten when deleted; an answered one is left as answered. Over SimCord."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from simcord import assert_no_errors

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, player, thread_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, time_up
from umtali.players import GreedyPlayer


def _shown(world: World, live: LiveMatch, question: Any) -> Any:
    return next(m for m in thread_of(world, live).history() if m.id == question.id)


async def _absent_moves(world: World, live: LiveMatch) -> int:
    """The absent player plays their turn at last (its first move withdraws the question:
    tests/test_clocks_question_mid_turn.py); their seat."""
    absent = live.session.to_act
    while live.session.to_act == absent and not live.over:
        move = GreedyPlayer().choose(live.session.view(absent))
        outcome = await world.bot.matches.act(  # type: ignore[union-attr]
            live, live.player_ids[absent], move)
        assert outcome.ok
        await flush(world)
    return absent


async def test_a_move_after_the_question_makes_it_void(world: World, db_path: Path) -> None:
    live, question = await time_up(world)
    asked = db_row(db_path, live.id)["question"]
    assert f'"message_id": {question.id}' in asked and live.question == asked
    # Moving on voids the question: it says so, its buttons gone, and nothing is left saved.
    absent = await _absent_moves(world, live)
    shown = _shown(world, live, question)
    assert "time for this turn is up" in shown.content
    assert "no longer needed" in shown.content and shown.components == []
    assert db_row(db_path, live.id)["question"] == "" and live.question == ""
    assert not live.over and live.session.to_act != absent


async def test_a_question_outlives_a_restart_and_a_move_then_voids_it(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live, question = await time_up(world)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.question == live.question != ""
    absent = restored.session.to_act
    while restored.session.to_act == absent:
        move = GreedyPlayer().choose(restored.session.view(absent))
        assert (await again.matches.act(restored, restored.player_ids[absent], move)).ok
        await flush(world)
    shown = _shown(world, restored, question)
    assert "no longer needed" in shown.content and shown.components == []
    assert db_row(db_path, live.id)["question"] == ""


async def test_an_answered_question_is_not_voided_after(world: World, db_path: Path) -> None:
    live, question = await time_up(world)
    absent = live.session.to_act
    kept = await player(world, 1 - absent).click(question, custom_id=button(question, "wait"))
    assert kept.acknowledged and not kept.ephemeral
    await flush(world)
    assert db_row(db_path, live.id)["question"] == ""
    await _absent_moves(world, live)
    shown = _shown(world, live, question)
    assert "keeps waiting" in shown.content and "no longer needed" not in shown.content


async def test_a_question_not_editable_for_now_is_voided_later(world: World, db_path: Path) -> None:
    live, question = await time_up(world)
    path = f"/channels/{question.channel.id}/messages/{question.id}"
    # Discord busy: the absent player's first move withdraws the question, saved (withdrawn),
    # and its edit, failed, is tried again with the next delivery.
    world.env.inject_error("PATCH", path, status=503, code=0, message="Unavailable")
    absent = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(absent))
    assert (await world.bot.matches.act(  # type: ignore[union-attr]
        live, live.player_ids[absent], move)).ok
    await flush(world)
    assert "no longer needed" not in _shown(world, live, question).content
    assert '"withdrawn": true' in db_row(db_path, live.id)["question"]
    # Its buttons, clicked meanwhile, change nothing.
    late = await player(world, 1 - absent).click(question, custom_id=button(question, "claim"))
    assert late.ephemeral and "no longer needed" in late.response.content
    assert not live.over
    await _absent_moves(world, live)
    assert "no longer needed" in _shown(world, live, question).content
    assert db_row(db_path, live.id)["question"] == ""


async def test_a_deleted_question_is_forgotten(world: World, db_path: Path) -> None:
    live, question = await time_up(world)
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=404, code=10008, message="Unknown Message")
    await _absent_moves(world, live)
    assert db_row(db_path, live.id)["question"] == "" and live.question == ""
    assert_no_errors(world.env)
