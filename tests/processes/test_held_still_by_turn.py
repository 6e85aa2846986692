"""A holder's clocks stand still (its gateway down): another process judges a move on one of its
matches, and a take of it, by the time that turn has stood still there, as the holder's note
says by match (``alive.still_by_match``, ``alive.held_since``). Before, the note said one time for
every match (the outage's start), and a copy forgot it once the turn's clock moved:

- the holder paying other time while the outage went on (time owed, a pause): the copy, its
  clock taken as saved, dropped ``held_still``: a move in time was refused as late, or the
  player forfeited at the take for the holder's outage;
- a turn begun during the outage (a move through the holder, its DMs on a shard still up) was
  owed, at a take, the outage from its start rather than from the turn's.

SimCord, virtual time, on SQLite and PostgreSQL (review79)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.service import MatchService
from cogs.umtali.standing_still import stood_still
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 300.0
OWED = 60.0
PAUSE = 20.0


@pytest.mark.parametrize("how", ["draw", "discard"])
async def test_a_payment_during_the_holders_outage_keeps_the_outage_for_a_copy(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    if how == "discard":  # the turn played up to its discard: the move left ends it
        while (move := GreedyPlayer().choose(live.session.view(seat))).kind \
                is not MoveKind.DISCARD:
            assert (await main.act(live, live.player_ids[seat], move, live.version)).ok
        await settle(world, main)
    await main.check_timers()
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    # A first outage whose give-back fails: OWED owed on the deadline.
    gateway_lost(main, None)
    world.clock.advance(OWED)
    save = main.store.set_deadline

    async def busy(*args: Any, **kwargs: Any) -> bool:
        raise OSError("the database is unreachable")

    monkeypatch.setattr(main.store, "set_deadline", busy)
    await gateway_back(main, None)
    monkeypatch.setattr(main.store, "set_deadline", save)
    assert main.clock_state.owed[live.id][0] == deadline
    # The process pauses; it wakes to its gateway dropped again.
    paused = world.clock.now
    world.clock.advance(PAUSE)
    gateway_lost(main, None)
    since = world.clock.now
    await heartbeat(main)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.held_still == since
    await stood_still(main, paused, since)  # the pause given back: all that is owed paid
    paid = (await row(world, live.id))["deadline"]
    assert paid == pytest.approx(deadline + OWED + PAUSE, abs=1)
    assert main.clock_state.outage is not None  # and the outage goes on
    world.clock.now = paid + 100  # past the deadline paid, well within the outage
    move = GreedyPlayer().choose(copy.session.view(seat))
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, f"refused ({outcome.error}) while the holder's clocks stand still"
    if how == "discard":
        return
    await settle(world, main, other)
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == other.owners.name
    assert saved["status"] == "active", "forfeited at the take for the holder's outage"
    assert saved["deadline"] == pytest.approx(paid + (paid + 100 - since), abs=3), \
        "the time the turn stood still at its holder was not given at the take"


async def test_a_turn_begun_during_the_holders_outage_is_owed_its_own_time_at_a_take(
        world: World, other: MatchService) -> None:
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    await main.check_timers()
    await settle(world, main)
    # Shard 1 down (the match's server); the players' DMs, on shard 0, still reach the holder.
    gateway_lost(main, 1)
    await heartbeat(main)
    world.clock.advance(OUTAGE)
    seat = live.session.to_act
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        assert (await main.act(live, live.player_ids[seat], move, live.version)).ok
    await settle(world, main)
    begun = live.deadline
    assert begun is not None
    await main.check_timers()  # the new turn stands still from here, and is noted so
    world.clock.advance(10)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.held_still is not None
    nxt = copy.session.to_act
    draw = GreedyPlayer().choose(copy.session.view(nxt))
    assert draw.kind is not MoveKind.DISCARD
    assert (await other.act(copy, copy.player_ids[nxt], draw, copy.version)).ok
    await settle(world, main, other)
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == other.owners.name
    assert saved["deadline"] == pytest.approx(begun + 10, abs=2), \
        "the turn was given the outage from before it began"
