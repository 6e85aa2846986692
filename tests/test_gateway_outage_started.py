"""Turns whose clock started during a gateway outage (``cogs/umtali/clock.py``, ``Outage``):
each gets back, when the gateway is, only the time it stood still, not the whole outage: a
match taken over from a stopped process mid-outage (its time up to the take-over was given
then), a time-up question's clock run out again mid-outage (it is asked at once), a turn that
began with a move on a shard still connected. And a process whose leases lapsed during its
outage (its database out of reach too) gives nothing to the match another took over meanwhile.
SimCord, virtual time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.claims import LEASE
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.clock_state import LATE
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, play_out, start_match, thread_of
from tests.processes.helpers import main_of
from tests.test_faults_timers import db_row, to_turn_end

ASKED = "time for this turn is up"


async def test_a_match_taken_over_during_an_outage_is_given_its_time_once(
        world: World, db_path: Path, other: MatchService) -> None:
    live = await start_match(world, time_control="normal")
    assert live.id in main_of(world).matches
    await other.check_timers()  # the second process's first check: it holds nothing
    gateway_lost(other, None)
    # The first process stops renewing (paused, killed): the second takes its match over,
    # 16 s into its own outage, giving back the time since the first was last alive.
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    theirs = other.matches[live.id]
    assert theirs.deadline is not None
    left = theirs.deadline - world.clock.now
    world.clock.advance(100)
    await gateway_back(other, None)
    # The 100 s its clock stood still here, not the 16 s before the take-over once more.
    assert theirs.deadline - world.clock.now == pytest.approx(left, abs=0.01)
    assert db_row(db_path, live.id)["deadline"] == theirs.deadline


async def test_a_time_up_question_run_out_again_during_an_outage_is_asked_at_its_end(
        world: World) -> None:
    svc = main_of(world)
    live = await start_match(world, time_control="correspondence")
    # The clock stopped for the question, which was never asked (its process killed between).
    assert await svc.owners.leases.stop_clock(live.id, live.version)
    live.deadline = None
    gateway_lost(svc, None)
    world.clock.advance(100)
    await svc.check_timers()  # its clock is run out again: the question is due at once
    assert live.deadline == world.clock.now - LATE
    world.clock.advance(500)
    await gateway_back(svc, None)
    await svc.check_timers()
    await flush(world)
    # Asked once the gateway is back, not 100 s later.
    assert sum(ASKED in m.content for m in thread_of(world, live).history()) == 1
    assert live.deadline is None and not live.over


async def test_a_turn_begun_during_an_outage_gets_back_only_its_own_wait(
        world: World, db_path: Path) -> None:
    svc = main_of(world)
    live = await start_match(world, turn_timer=5)
    seat, turn = live.session.to_act, live.control.turn
    await to_turn_end(world, live)
    gateway_lost(svc, None)  # a shard's connection: this server's is still up
    world.clock.advance(100)
    await play_out(world, live, moves=1)  # the turn ends; the next begins
    assert live.session.to_act == 1 - seat and live.deadline is not None
    assert live.deadline == pytest.approx(world.clock.now + turn, abs=0.01)
    await svc.check_timers()  # the clocks stand still: the new turn's from now
    world.clock.advance(200)
    await gateway_back(svc, None)
    assert live.deadline == pytest.approx(world.clock.now + turn, abs=0.01)
    assert db_row(db_path, live.id)["deadline"] == live.deadline
    await svc.check_timers()
    assert not live.over


async def test_an_outage_ended_after_a_take_over_gives_the_holder_nothing_more(
        world: World, db_path: Path, other: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first process's network goes down, its gateway and its database with it: its
    leases lapse and the second takes its match over (giving back the time since the first was
    last heard of). When the first's connection is back, before it learns it lost the match,
    its outage's time is not given to the match the second holds."""
    main = main_of(world)
    live = await start_match(world, time_control="normal")
    await other.check_timers()  # the second process's first check: it holds nothing
    gateway_lost(main, None)

    async def unreachable(*args: Any, **kwargs: Any) -> set[int]:
        raise OSError("the database is unreachable")

    with monkeypatch.context() as m:
        m.setattr(main.owners.leases, "renew", unreachable)
        for _ in range(int(LEASE) + 1):
            world.clock.advance(1)
            await main.check_timers()  # its renewals fail
        await other.check_timers()  # the lease lapsed: taken over
        theirs = other.matches[live.id]
        assert theirs is not live and theirs.deadline is not None
        for _ in range(10):
            world.clock.advance(5)
            await other.check_timers()  # the second renews its lease
    await gateway_back(main, None)  # back before its next renewal
    assert db_row(db_path, live.id)["deadline"] == theirs.deadline
    assert live.id not in main.matches
    await main.check_timers()
    await other.check_timers()
    assert db_row(db_path, live.id)["owner"] == "p2" and not theirs.over
