"""A move reaching one process for a match another holds while that holder's gateway is down
(processes by shards: the match's server on the holder's shard, down; its players' DMs on
shard 0, up, in another process). The holder's clocks stand still: it forfeits nobody and,
once its gateway is back, gives the turn the outage's time. The process the move reaches
judges it by the same clock: not refused as late for a deadline the holder has not let run
out. SimCord, virtual time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogs.umtali.alive import alive_key, heartbeat, last_alive
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row
from umtali.players import GreedyPlayer


async def test_a_dm_move_through_another_process_during_the_holders_outage_is_in_time(
        world: World, db_path: Path, other: MatchService) -> None:
    main = main_of(world)
    live = await start_match(world, turn_timer=60)
    assert live.deadline is not None and live.id in main.matches
    deadline = live.deadline
    await other.check_timers()  # the second process's first check: it holds nothing
    await main.check_timers()
    world.clock.now = deadline - 10  # 10 s of the turn left when the holder's gateway drops
    gateway_lost(main, 1)
    await heartbeat(main)  # its note: its clocks stand still since the outage began
    # Five minutes: the holder renews its leases (its database is there), forfeits nobody.
    for _ in range(60):
        world.clock.advance(5)
        await main.check_timers()
    assert not live.over and live.deadline == deadline
    # The player to act moves (a draw from their DM panel): it reaches the other process.
    theirs = await other.lookup(live.id)
    assert theirs is not None
    seat = theirs.session.to_act
    move = GreedyPlayer().choose(theirs.session.view(seat))
    outcome = await other.act(theirs, theirs.player_ids[seat], move)
    assert outcome.error is None, outcome.error
    saved = await row(world, live.id)
    assert saved["version"] == live.version + 1 and saved["status"] == "active"
    assert saved["owner"] == "p2" and other.matches[live.id] is theirs
    # Held here now, where the clock runs: the turn (the move, a meld, in the middle of it)
    # keeps the 10 s it had, not forfeited for the other process's outage.
    await other.check_timers()
    assert not theirs.over and theirs.session.to_act == seat
    assert theirs.deadline == pytest.approx(world.clock.now + 10, abs=0.01)
    assert (await row(world, live.id))["deadline"] == theirs.deadline
    world.clock.advance(5)
    await gateway_back(main, 1)
    await main.check_timers()
    await other.check_timers()
    assert not theirs.over and (await row(world, live.id))["status"] == "active"
    assert live.id not in main.matches


async def test_the_holders_note_says_its_clocks_stand_still_as_its_gateway_drops(
        world: World, db_path: Path, other: MatchService) -> None:
    """Noted at once, not at the holder's next heartbeat (up to 10 s later): a move reaching
    another process in those seconds is judged by the same clock."""
    main = main_of(world)
    live = await start_match(world, turn_timer=60)
    assert live.deadline is not None
    await other.check_timers()
    await main.check_timers()  # its first check notes it alive, clocks running
    while world.clock.now < live.deadline - 7:
        world.clock.advance(5)
        await main.check_timers()  # renewing its leases
    world.clock.now = live.deadline - 2
    world.bot.dispatch("disconnect")  # as discord.py tells it
    await world.env.settle()
    assert main.clock_state.outage is not None
    # The listener's note, on its way to the database (a task of its own).
    for _ in range(500):
        if last_alive(await main.store.get_meta(alive_key(main.owners.name)))[1]:
            break
        await asyncio.sleep(0.01)
    world.clock.advance(5)  # past the deadline as saved, before any heartbeat
    theirs = await other.lookup(live.id)
    assert theirs is not None
    seat = theirs.session.to_act
    move = GreedyPlayer().choose(theirs.session.view(seat))
    outcome = await other.act(theirs, theirs.player_ids[seat], move)
    assert outcome.error is None, outcome.error
    world.bot.dispatch("resumed")
    await world.env.settle()
    assert main.clock_state.outage is None
    await other.check_timers()
    assert not theirs.over
    assert theirs.deadline == pytest.approx(world.clock.now + 2, abs=0.01)


async def test_a_match_taken_for_a_change_during_the_holders_outage_keeps_its_time(
        world: World, db_path: Path, other: MatchService) -> None:
    """Taken with no move (``Owners.hold``: a table moved, say) from a holder whose clocks
    stand still: the turn's time stood still is given here, not forfeited at the next check."""
    main = main_of(world)
    live = await start_match(world, turn_timer=60)
    assert live.deadline is not None
    deadline = live.deadline
    await other.check_timers()
    await main.check_timers()
    world.clock.now = deadline - 10
    gateway_lost(main, 1)
    await heartbeat(main)
    for _ in range(60):
        world.clock.advance(5)
        await main.check_timers()
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs.deadline == deadline
    await other.owners.hold(theirs)
    assert other.matches[live.id] is theirs
    await other.check_timers()
    assert not theirs.over
    assert theirs.deadline == pytest.approx(world.clock.now + 10, abs=0.01)
    assert (await row(world, live.id))["deadline"] == theirs.deadline
