"""A correspondence turn's time-up question asked by the holder (its clock stopped, the question
saved, the version kept) after another process read its copy of the match, which then took the
match at that version (``/umtali table``). The copy, held, kept the running clock and no
question: the waiting player's answer reaching it was refused as no longer needed (its
buttons taken off), and its clock, tried at every check, could stop the turn no more: nobody
could claim the session or give the absent player more time."""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.question import Question, stands
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, thread_of
from tests.processes.helpers import read_elsewhere, row, settle, via
from tests.processes.test_given_back_copy_read_before import table_again
from tests.time_control_helpers import button
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_take_with_a_copy_read_before_the_question_was_asked_answers_it(
        world: World, other: MatchService) -> None:
    live, main, deadline, copy = await read_elsewhere(world, other, time_control="correspondence")
    absent = live.session.to_act
    world.clock.now = deadline + LATE + 1
    await main.check_timers()
    await settle(world, main)
    question = thread_of(world, live).history()[-1]
    assert "time for this turn is up" in question.content
    assert (await row(world, live.id))["deadline"] is None
    await table_again(world, other, copy)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    with via(world, other):
        answer = await player(world, 1 - absent).click(question,
                                                       custom_id=button(question, "wait"))
    assert answer.acknowledged
    assert not answer.ephemeral, "answered as no longer needed"
    await settle(world, main, other)
    saved = (await row(world, live.id))["deadline"]
    assert saved is not None and saved > deadline + LATE + 2, \
        "the absent player was given no more time"
    assert copy.deadline == saved


async def test_a_move_within_the_turn_with_a_copy_read_before_the_question_withdraws_it(
        world: World, other: MatchService) -> None:
    """The absent player's draw through the other process, its copy read before the question
    was asked: saved with the running deadline from before (long past), the question left
    standing; the turn is given a fresh turn's time, the question withdrawn, as a move on the
    match as saved does."""
    live, main, deadline, copy = await read_elsewhere(world, other, time_control="correspondence")
    absent = live.session.to_act
    world.clock.now = deadline + LATE + 1
    await main.check_timers()
    await settle(world, main)
    assert (await row(world, live.id))["deadline"] is None
    move = GreedyPlayer().choose(copy.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    outcome = await other.act(copy, copy.player_ids[absent], move, copy.version)
    assert outcome.ok, outcome.error
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["deadline"] is not None and saved["deadline"] > world.clock(), \
        "the move ran the clock from before on, its deadline long past"
    asked = Question.loads(saved["question"])
    assert asked is None or not stands(asked, copy), "the question still stands"
