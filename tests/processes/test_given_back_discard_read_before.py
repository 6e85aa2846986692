"""Time given back to a turn by its holder (an outage's: a give back keeps the version) after
another process read its copy of the match, which then ended the turn (a discard) at that
version. A move within the turn keeps the deadline as saved (``record_move``
keep_deadline); the turn's last move was judged by the copy's deadline, from before: the
player's reserve was charged for the time given back."""

from __future__ import annotations

from cogs.umtali.give_back import give_back
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

GIVEN = 300.0


async def test_a_discard_with_a_copy_read_before_time_given_back_is_judged_by_it(
        world: World, other: MatchService) -> None:
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    # The draw (and any meld) through the holder, up to the discard.
    while (move := GreedyPlayer().choose(live.session.view(seat))).kind is not MoveKind.DISCARD:
        outcome = await main.act(live, live.player_ids[seat], move, live.version)
        assert outcome.ok, outcome.error
    await settle(world, main)
    deadline, reserve = live.deadline, live.reserves[seat]
    assert deadline is not None and reserve > 200
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.version == live.version
    # The holder gives the turn back an outage's time.
    await give_back(main, {live.id: (deadline, GIVEN)}, "of the gateway outage")
    assert (await row(world, live.id))["deadline"] == deadline + GIVEN
    # The discard, through the other process, 200 s into the old reserve's time: within the
    # turn's own time as given back.
    world.clock.now = deadline - reserve + 200
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is MoveKind.DISCARD
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, outcome.error
    await settle(world, main, other)
    assert (await row(world, live.id))[f"reserve{seat}"] == reserve, \
        "the reserve was charged for the time given back"
