"""A correspondence turn's time-up question answered "keep waiting" through the holder (the
turn given a fresh turn's time, the version kept) after another process read its copy of the
match while the question stood. The absent player's move within the turn through that copy
was taken for a comeback to a clock still stopped: the turn was given a fresh turn's time
again, from the move (the time since the answer given twice)."""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, start_match, thread_of
from tests.processes.helpers import main_of, row, settle, via
from tests.time_control_helpers import button
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

HOUR = 3600.0


async def test_a_move_within_the_turn_through_a_copy_read_as_the_question_stood_keeps_the_answer(
        world: World, other: MatchService) -> None:
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    absent = live.session.to_act
    world.clock.now = deadline + LATE + 1
    await main.check_timers()
    await settle(world, main)
    question = thread_of(world, live).history()[-1]
    assert "time for this turn is up" in question.content
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.deadline is None
    with via(world, main):
        answer = await player(world, 1 - absent).click(question,
                                                       custom_id=button(question, "wait"))
    assert answer.acknowledged
    await settle(world, main)
    waited = await row(world, live.id)
    given = waited["deadline"]
    assert given is not None
    # An hour later, the absent player's draw through the other process.
    world.clock.advance(HOUR)
    move = GreedyPlayer().choose(copy.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    outcome = await other.act(copy, copy.player_ids[absent], move, copy.version)
    assert outcome.ok, outcome.error
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["deadline"] == given, "the turn was given a fresh turn's time again"
