"""A holder's clocks stand still (its gateway down): another process judges a move on one of its
matches, and a take of it, by the time that turn has stood still there, as the holder's note
says by match (``alive.still_by_match``, ``alive.held_since``). Before, the note said one time for
every match (the outage's start), and a copy forgot it once the turn's clock moved:

- the holder paying other time while the outage went on (time owed, a pause): the copy, its
  clock taken as saved, dropped ``held_still``: a move in time was refused as late, or the
  player forfeited at the take for the holder's outage;
- a turn begun during the outage (a move through the holder, its DMs on a shard still up) was
  owed, at a take, the outage from its start rather than from the turn's;
- the holder's outage ending just after a copy's move was saved (the match taken): the note,
  read after, said the clocks ran, and nobody gave the turn the outage (review86);
- a turn begun while the holder connects (after a restart) stood still there from its start, the
  note saying nothing of it until the first check: a move in time elsewhere was refused; and a
  turn begun during the outage of a process that then died was resumed by the process taking it
  over with the outage from its start (review86).

SimCord, virtual time, on SQLite and PostgreSQL (review79)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.alive import alive_key, heartbeat, notes_of
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.standing_still import stood_still
from data.db import Row
from tests.discord_helpers import World, start_match
from tests.processes.helpers import checked, kill, main_of, process, row, settle, turn_played
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 300.0
OWED = 60.0
PAUSE = 20.0


async def taken(world: World, main: MatchService, other: MatchService,
                match_id: int) -> Row:
    """The match as saved once ``other``, whose action took it, has checked its timers (what
    it owes the turn saved)."""
    await settle(world, main, other)
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, main, other)
    saved = await row(world, match_id)
    assert saved["owner"] == other.owners.name
    return saved


async def paid_during_an_outage(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        to_discard: bool = False) -> tuple[LiveMatch, LiveMatch, float]:
    """A match whose holder owes its turn ``OWED`` (a first outage's give-back failed), then
    pauses, waking to its gateway down again: a copy read by ``other`` then, and the holder
    paying what it owes and the pause while that outage goes on. The match, the copy, and
    since when the outage stands the turn still. ``to_discard``: the turn played up to its
    discard first (the move left ends it)."""
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    while to_discard and (move := GreedyPlayer().choose(live.session.view(seat))).kind \
            is not MoveKind.DISCARD:
        assert (await main.act(live, live.player_ids[seat], move, live.version)).ok
    await settle(world, main)
    await main.check_timers()
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    gateway_lost(main, None)
    world.clock.advance(OWED)
    save = main.store.set_deadline

    async def busy(*args: Any, **kwargs: Any) -> bool:
        raise OSError("the database is unreachable")

    monkeypatch.setattr(main.store, "set_deadline", busy)
    await gateway_back(main, None)
    monkeypatch.setattr(main.store, "set_deadline", save)
    assert main.clock_state.owed[live.id][0] == deadline
    paused = world.clock.now
    world.clock.advance(PAUSE)
    gateway_lost(main, None)
    since = world.clock.now
    await heartbeat(main)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.held_still == since
    await stood_still(main, paused, since)  # the pause given back: all that is owed paid
    assert (await row(world, live.id))["deadline"] == pytest.approx(
        deadline + OWED + PAUSE, abs=1)
    assert main.clock_state.outage is not None  # and the outage goes on
    return live, copy, since


@pytest.mark.parametrize("how", ["draw", "discard"])
async def test_a_payment_during_the_holders_outage_keeps_the_outage_for_a_copy(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    live, copy, since = await paid_during_an_outage(world, other, monkeypatch,
                                                    to_discard=how == "discard")
    main = main_of(world)
    paid = (await row(world, live.id))["deadline"]
    world.clock.now = paid + 100  # past the deadline paid, well within the outage
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, f"refused ({outcome.error}) while the holder's clocks stand still"
    if how == "discard":
        return
    saved = await taken(world, main, other, live.id)
    assert saved["status"] == "active", "forfeited at the take for the holder's outage"
    assert saved["deadline"] == pytest.approx(paid + (paid + 100 - since), abs=3), \
        "the time the turn stood still at its holder was not given at the take"


async def test_a_turn_begun_during_the_holders_outage_is_owed_its_own_time_at_a_take(
        world: World, other: MatchService) -> None:
    live, main = await checked(world, time_control="normal")
    # Shard 1 down (the match's server); the players' DMs, on shard 0, still reach the holder.
    gateway_lost(main, 1)
    await heartbeat(main)
    world.clock.advance(OUTAGE)
    await turn_played(world, main, live)
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
    saved = await taken(world, main, other, live.id)
    assert saved["deadline"] == pytest.approx(begun + 10, abs=2), \
        "the turn was given the outage from before it began"


async def test_the_holders_outage_ending_as_a_copys_move_is_saved_is_given_at_the_take(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, copy, since = await paid_during_an_outage(world, other, monkeypatch)
    main = main_of(world)
    paid = (await row(world, live.id))["deadline"]
    world.clock.now = paid + 100
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD
    record = other.store.record_move

    async def then_the_outage_ends(*args: Any, **kwargs: Any) -> Any:
        done = await record(*args, **kwargs)
        await gateway_back(main, None)  # the holder's gateway back just after the save
        return done

    monkeypatch.setattr(other.store, "record_move", then_the_outage_ends)
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    monkeypatch.setattr(other.store, "record_move", record)
    assert outcome.ok, outcome.error
    saved = await taken(world, main, other, live.id)
    assert saved["status"] == "active", "forfeited for the holder's outage"
    assert saved["deadline"] == pytest.approx(paid + (paid + 100 - since), abs=3), \
        "the time the turn stood still at its holder was given by nobody"


async def _turn_through(svc: MatchService, match_id: int) -> None:
    """The seat to act plays its turn out through ``svc``."""
    seat = None
    while True:
        mine = await svc.lookup(match_id)
        assert mine is not None
        if seat is None:
            seat = mine.session.to_act
        if mine.session.to_act != seat:
            return
        move = GreedyPlayer().choose(mine.session.view(seat))
        assert (await svc.act(mine, mine.player_ids[seat], move, mine.version)).ok


async def test_a_turn_begun_as_its_holder_connects_takes_a_move_in_time_elsewhere(
        world: World, other: MatchService, store_target: str) -> None:
    live, main = await checked(world, turn_timer=1)
    async with process(world, store_target, "p3") as first:
        await first.check_timers()
        await _turn_through(first, live.id)  # p3 holds the match
        await settle(world, main, first)
        await heartbeat(first)
        await kill(first)
        # p3 restarts: it takes its match back at its start, and connects (no check yet).
        async with process(world, store_target, "p3") as third:
            assert third.clock_state.loaded is not None and live.id in third.matches
            world.clock.advance(5)
            # A move on its shard up already (a DM) begins a turn there, standing still
            # until its first check.
            await _turn_through(third, live.id)
            await settle(world, main, other, third)
            begun = (await row(world, live.id))["deadline"]
            world.clock.now = begun + 30  # still connecting
            copy = await other.lookup(live.id)
            assert copy is not None and copy is not third.matches[live.id]
            nxt = copy.session.to_act
            draw = GreedyPlayer().choose(copy.session.view(nxt))
            assert draw.kind is not MoveKind.DISCARD
            outcome = await other.act(copy, copy.player_ids[nxt], draw, copy.version)
            assert outcome.ok, f"refused ({outcome.error}): its holder's clock stands still"


async def test_the_note_a_bot_from_before_reads_is_as_it_was(world: World) -> None:
    """The entries by match have a key of their own: the note of when the process was last
    alive reads as ever to a bot from before them (a rollback), its clocks standing still."""
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    gateway_lost(main, None)
    since = world.clock.now
    world.clock.advance(30)
    await heartbeat(main)
    assert await main.store.get_meta(alive_key(main.owners.name)) == f"{since!r} still"
    by_match = (await notes_of(main.store, main.owners.name))[1]
    assert by_match is not None and str(live.id) in by_match
    await gateway_back(main, None)
    assert (await notes_of(main.store, main.owners.name))[1] == ""


async def test_a_turn_begun_during_an_outage_is_resumed_from_its_own_start_after_a_crash(
        world: World, other: MatchService) -> None:
    live, main = await checked(world, turn_timer=60)
    gateway_lost(main, 1)  # the match's server's shard; the DMs still reach the holder
    await heartbeat(main)
    world.clock.advance(OUTAGE)
    await turn_played(world, main, live)
    assert live.deadline is not None
    turn = live.deadline - world.clock.now
    await main.check_timers()  # the new turn stands still from here, noted so
    world.clock.advance(10)
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()  # takes the match over, resumed as its holder stopped
    await settle(world, other)
    saved = await row(world, live.id)
    assert saved["owner"] == other.owners.name
    left = saved["deadline"] - world.clock.now
    assert left == pytest.approx(turn, abs=3), \
        f"resumed with {left:.0f} s left of {turn:.0f}: given the outage from before the turn"


async def test_a_turn_begun_during_an_outage_then_a_crash_before_its_check_is_not_given_it(
        world: World, other: MatchService) -> None:
    """Noted at once as it begins (its clock running till the holder's next check), the turn
    is resumed after the crash from when that process stopped, not from the outage's start."""
    live, main = await checked(world, turn_timer=60)
    gateway_lost(main, 1)  # the match's server's shard; the DMs still reach the holder
    await heartbeat(main)
    world.clock.advance(OUTAGE)
    await main.owners.renew(world.clock.now)  # the leases renewed beside, as ever
    await turn_played(world, main, live)
    assert live.deadline is not None
    turn = live.deadline - world.clock.now
    await kill(main)  # before its next check noted the turn still
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    saved = await row(world, live.id)
    assert saved["owner"] == other.owners.name
    left = saved["deadline"] - world.clock.now
    assert left <= turn + 3, \
        f"resumed with {left:.0f} s left of {turn:.0f}: given the outage from before the turn"
