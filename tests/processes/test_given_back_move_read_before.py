"""Time given back to a turn by its holder (an outage's: a give back keeps the version) after
another process read its copy of the match, which then played a move within the turn (a draw)
at that version. The move saved the copy's deadline, from before: the time given back was
lost, and the process, holding the match from then on, forfeited the player that time early."""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.give_back import give_back
from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import read_elsewhere, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

GIVEN = 300.0


async def test_a_move_within_the_turn_with_a_copy_read_before_time_given_back_keeps_it(
        world: World, other: MatchService) -> None:
    live, main, deadline, copy = await read_elsewhere(world, other, turn_timer=2)
    await give_back(main, {live.id: (deadline, GIVEN)}, "of the gateway outage")
    assert (await row(world, live.id))["deadline"] == deadline + GIVEN
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD  # a draw: the turn goes on
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, outcome.error
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert (await row(world, live.id))["deadline"] == deadline + GIVEN, \
        "the move saved the deadline from before the time given back"
    await other.check_timers(now=deadline + LATE + 1)
    await settle(world, main, other)
    assert (await row(world, live.id))["status"] == "active", \
        "the player was forfeited before the time given back ran out"
    assert copy.deadline == deadline + GIVEN
