"""One match's give-back of an outage owed (its save failing for that row): the heartbeat's
note, said "alive as of now less the time owed, clocks standing still", is the process's, and
another process taking a *different* match of the holder read it as the holder standing still
and owed that match the same time again (review75). Time owed is noted by match
(``alive.owed_to_note``), and goes with its match alone."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, cut, flush, start_match
from tests.processes.helpers import kill, main_of, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 600.0


async def x_owed_an_outage(world: World, monkeypatch: pytest.MonkeyPatch) -> tuple[
        MatchService, LiveMatch, LiveMatch]:
    """Two matches of the bot's process, x (a practice) and y, through an outage whose time
    is given back to y and owed to x (its save failing): the process, x and y."""
    y = await start_match(world, time_control="normal")
    main = main_of(world)
    offered = await world.carol.slash(world.channel, "umtali practice")
    await cut(world, offered, actor=world.carol)
    await flush(world)
    x = next(m for m in main.matches.values() if m.id != y.id)
    await settle(world, main)
    gateway_lost(main, None)
    world.clock.advance(OUTAGE)
    save = main.store.set_deadline

    async def busy_for_x(match_id: int, *args: Any, **kwargs: Any) -> bool:
        if match_id == x.id:
            raise sqlite3.OperationalError("database is locked")
        return bool(await save(match_id, *args, **kwargs))

    monkeypatch.setattr(main.store, "set_deadline", busy_for_x)
    await gateway_back(main, None)
    assert x.id in main.clock_state.owed and y.id not in main.clock_state.owed
    return main, x, y


async def test_owed_time_of_one_match_is_not_given_to_another_at_a_take(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    main, _, y = await x_owed_an_outage(world, monkeypatch)
    assert y.deadline is not None
    y_deadline = y.deadline - OUTAGE
    assert (await row(world, y.id))["deadline"] == pytest.approx(y_deadline + OUTAGE, abs=0.01)
    world.clock.advance(5)
    await heartbeat(main)
    copy = await other.lookup(y.id)
    assert copy is not None and copy is not y
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, outcome.error
    await settle(world, main, other)
    assert (await row(world, y.id))["owner"] == other.owners.name
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, y.id))["deadline"] == pytest.approx(y_deadline + OUTAGE, abs=2), \
        "match y was given match x's owed time again at the take"


async def test_a_killed_process_time_owed_goes_with_its_match_alone(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process owing match x an outage's time (its save failing) is killed before it is
    paid: the process taking its matches over gives x that time (its note, by match), and y,
    paid already, nothing more than the time the holder was down."""
    main, x, y = await x_owed_an_outage(world, monkeypatch)
    assert x.deadline is not None and y.deadline is not None
    x_deadline, y_deadline = x.deadline, y.deadline - OUTAGE
    world.clock.advance(5)
    await heartbeat(main)  # its last sign of life
    last = world.clock.now
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, x.id))["owner"] == other.owners.name
    assert (await row(world, y.id))["owner"] == other.owners.name
    down = world.clock.now - last
    assert (await row(world, x.id))["deadline"] == pytest.approx(
        x_deadline + OUTAGE + down, abs=2), "the outage's time owed to x was lost"
    assert (await row(world, y.id))["deadline"] == pytest.approx(
        y_deadline + OUTAGE + down, abs=2), "y was given the outage twice"


async def test_time_owed_by_the_holder_goes_with_a_move_through_another_process(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder owes match y an outage's time (its save failing) when a draw on y comes
    through another process, past y's deadline as saved and within the time owed: the move is
    in time (judged with the holder's note), and the time goes with the match, owed by the
    process it is taken to, as the holder, finding it taken, pays it no more (review78)."""
    y = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    assert y.deadline is not None
    y_deadline = y.deadline
    world.clock.now = y_deadline - 60
    gateway_lost(main, None)
    world.clock.advance(OUTAGE)
    save = main.store.set_deadline

    async def busy_for_y(match_id: int, *args: Any, **kwargs: Any) -> bool:
        if match_id == y.id:
            raise sqlite3.OperationalError("database is locked")
        return bool(await save(match_id, *args, **kwargs))

    monkeypatch.setattr(main.store, "set_deadline", busy_for_y)
    await gateway_back(main, None)
    assert y.id in main.clock_state.owed
    world.clock.advance(5)
    await heartbeat(main)
    world.clock.advance(30)  # past the deadline as saved, 25 s left with the time owed
    copy = await other.lookup(y.id)
    assert copy is not None and copy is not y
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, outcome.error
    await settle(world, main, other)
    world.clock.advance(1)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, y.id))["owner"] == other.owners.name
    assert y.id not in main.clock_state.owed
    assert (await row(world, y.id))["deadline"] == pytest.approx(y_deadline + OUTAGE, abs=2), \
        "the outage's time owed to y was lost at the take"
