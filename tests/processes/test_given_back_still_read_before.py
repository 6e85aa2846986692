"""A copy read while the holder's gateway was down (its note: clocks standing still since, the
copy's ``held_still``), then the gateway back and the outage's time given back by the holder
(saved at the turn's version), then the match taken through the copy at that version (a move
within the turn; ``/umtali table``). The copy took the deadline as saved, the outage given back
in it, and owed the turn the time its holder stood still all the same
(``held_elsewhere.owe_taken``): the outage's time given twice."""

from __future__ import annotations

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from tests.processes.test_given_back_copy_read_before import table_again
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 300.0


@pytest.mark.parametrize("how", ["move", "table"])
async def test_an_outage_given_back_before_a_take_with_a_copy_read_during_it_is_given_once(
        world: World, other: MatchService, how: str) -> None:
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    gateway_lost(main, None)
    await heartbeat(main)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.held_still is not None
    world.clock.advance(OUTAGE)
    await gateway_back(main, None)
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + OUTAGE, abs=0.01)
    if how == "move":
        seat = copy.session.to_act
        move = GreedyPlayer().choose(copy.session.view(seat))
        assert move.kind is not MoveKind.DISCARD
        outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
        assert outcome.ok, outcome.error
    else:
        await table_again(world, other, copy)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + OUTAGE, abs=2), \
        "the outage's time was given twice"
    assert copy.deadline == pytest.approx(deadline + OUTAGE, abs=2)
