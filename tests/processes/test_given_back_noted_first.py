"""An outage's time, given back by the holder, is owed and noted before it is paid
(``give_back.give_back``): whoever reads the holder's notes between a payment and the next,
another process's action or a restart after a crash there, gives it once. SimCord, virtual
time, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 300.0


async def test_a_copy_read_as_the_holder_pays_an_outage_does_not_owe_it_again(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy read by another process as the holder pays an outage's time (after one match's
    save, before the next's) finds that deadline paid: the holder's notes say its clocks run
    again, and that time owed on the deadline before it, so the move through it owes the turn
    nothing more (review79: the note said "standing still" until every match was paid, and the
    take owed the outage a second time)."""
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    gateway_lost(main, None)
    await heartbeat(main)
    world.clock.advance(OUTAGE)
    save = main.store.set_deadline
    taken: list[Any] = []

    async def then_a_move_elsewhere(match_id: int, *args: Any, **kwargs: Any) -> bool:
        ok = bool(await save(match_id, *args, **kwargs))
        # (another match's payment would be next)
        copy = await other.lookup(live.id)
        assert copy is not None
        seat = copy.session.to_act
        move = GreedyPlayer().choose(copy.session.view(seat))
        assert move.kind is not MoveKind.DISCARD
        taken.append((copy.held_still, await other.act(copy, copy.player_ids[seat], move,
                                                       copy.version)))
        return ok

    monkeypatch.setattr(main.store, "set_deadline", then_a_move_elsewhere)
    await gateway_back(main, None)
    monkeypatch.setattr(main.store, "set_deadline", save)
    assert taken and taken[0][1].ok
    await settle(world, main, other)
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + OUTAGE, abs=2), \
        "the outage was given twice (paid by the holder, owed again by the taker)"

