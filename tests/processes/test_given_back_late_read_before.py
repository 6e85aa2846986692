"""Time given back to a turn by its holder (an outage's: a give back keeps the version) after
another process read its copy of the match, which then judged a move within the turn made
after the deadline from before and before the one given back: refused as made after the
turn's deadline ("Your time ran out"), judged by the copy's deadline alone."""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.give_back import give_back
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

GIVEN = 300.0


async def test_a_move_in_the_time_given_back_through_a_copy_read_before_is_played(
        world: World, other: MatchService) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    await give_back(main, {live.id: (deadline, GIVEN)}, "of the gateway outage")
    assert (await row(world, live.id))["deadline"] == deadline + GIVEN
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD  # a draw: the turn goes on
    world.clock.now = deadline + LATE + 10
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, f"refused in the time given back: {outcome.error}"
    await settle(world, main, other)
    assert (await row(world, live.id))["version"] == copy.version
