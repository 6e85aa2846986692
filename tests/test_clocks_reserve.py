"""A restart in the middle of a reserve (``cogs/umtali/clock.py``): the turn gets at least its
grace, but the grace is that turn's own time, not reserve banked for later turns; in memory as
in the database, and through another restart (SimCord, virtual time)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from tests.discord_helpers import World, play_out, start_match
from tests.test_faults_timers import db_row, to_turn_end


async def _restart(world: World, make_bot: Callable[[], UmtaliBot]) -> UmtaliBot:
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    return again


@pytest.mark.parametrize("offline", [0.0, 3600.0])
async def test_the_grace_after_a_restart_is_not_banked_in_the_reserve(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot], offline: float) -> None:
    live = await start_match(world, time_control="blitz")
    seat = live.session.to_act
    await to_turn_end(world, live)
    assert live.deadline is not None and world.bot.matches is not None
    # Stopped with 5 s of the reserve left.
    world.clock.now = live.deadline - 5
    await heartbeat(world.bot.matches)
    world.clock.advance(offline)
    again = await _restart(world, make_bot)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # At least the grace (blitz: its 30 s turn), of which the reserve is the last 5 s.
    assert restored.deadline == pytest.approx(world.clock.now + 30, abs=1)
    assert restored.reserves[seat] == pytest.approx(5)
    assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(5)
    # Played 2 s later, within the grace: the reserve keeps its 5 s, not the grace's 28.
    world.clock.advance(2)
    await play_out(world, restored, moves=1)
    assert restored.session.to_act != seat
    assert restored.reserves[seat] == pytest.approx(5)
    assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(5)


async def test_a_restart_with_reserve_to_spare_spends_it_as_before(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, time_control="blitz")
    seat = live.session.to_act
    await to_turn_end(world, live)
    assert live.deadline is not None and world.bot.matches is not None
    # Stopped with 50 s of the reserve left (more than the grace): back an hour later.
    world.clock.now = live.deadline - 50
    await heartbeat(world.bot.matches)
    world.clock.advance(3600)
    again = await _restart(world, make_bot)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.deadline == pytest.approx(world.clock.now + 50, abs=1)
    # The timers' first check, a second after connecting as the bot runs them: time after it
    # is play, not connecting (before it, it would be given back, reserve and all).
    await again.matches.check_timers()
    world.clock.advance(10)
    await play_out(world, restored, moves=1)
    assert restored.reserves[seat] == pytest.approx(40)
    assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(40)
