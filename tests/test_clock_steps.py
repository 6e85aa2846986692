"""The system's clock stepped forward (NTP correcting it, a virtual machine resumed) is time
nobody could play, given back to the running turns before any deadline is judged on it,
wherever the step lands (review150): between the timers' wake and their check it forfeited a
turn that had 110 s left, and a move in the second after one, before the timers had woken,
was refused as made after its deadline. SimCord, virtual time: ``Clock.step`` sets the wall
clock apart from the steady one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogs.umtali import outgrown, startup
from cogs.umtali.clock import gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.standing_still import judged_check
from tests.discord_helpers import World, flush, play, start_match, thread_of
from tests.processes.helpers import kill
from tests.test_clocks_stood_still import running
from tests.test_faults_timers import db_row
from umtali.players import GreedyPlayer

#: Ten minutes: the step.
STEP = 600.0


async def test_a_step_between_the_wake_and_the_check_forfeits_nobody(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    async with running(world, monkeypatch) as timers:
        left = live.deadline - world.clock.now
        read = outgrown.stop_if_outgrown
        stepped: list[float] = []

        async def read_then_step(client: object, service: MatchService) -> bool:
            if not stepped:
                # The watch beside the loop has woken already, before the step.
                for _ in range(20):
                    await asyncio.sleep(0)
                stepped.append(world.clock.now)
                world.clock.step(STEP)  # as the tick's schema read waits on the database
            return await read(client, service)  # type: ignore[arg-type]
        monkeypatch.setattr(startup, "stop_if_outgrown", read_then_step)
        await timers.ticks(10)
        assert stepped, "the step was not made where meant"
        assert not live.over, "a turn forfeited for a step of the clock"
        assert live.deadline is not None
        # Given back whole, once: 10 s of ticks went since (give or take a tick).
        assert left - 12 <= live.deadline - world.clock.now <= left - 8, \
            (left, live.deadline - world.clock.now)


async def test_a_move_just_after_a_step_is_played(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    async with running(world, monkeypatch) as timers:
        await timers.ticks(1)
        world.clock.step(STEP)  # the timers' loop asleep, not woken since (up to a second)
        seat = live.session.to_act
        version = live.version
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
        assert live.version == version + 1 and not live.over
        # The next checks give the step back once, and forfeit nobody.
        await timers.ticks(3)
        assert not live.over
        assert live.deadline is not None and live.deadline - world.clock.now > 60


async def test_a_step_on_one_host_takes_no_match_from_its_other_processes(
        world: World, db_path: Path, other: MatchService) -> None:
    """Two processes on one host, their clock stepped alike: every lease looks lapsed to the
    first to wake, which took the other's matches (and told their channel it had been offline
    ten minutes). It waits a lease; the holder, waking, renews its own."""
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    for each in (svc, other):
        await judged_check(each)  # (each has read the clock once: its loop runs)
    seen = len(thread_of(world, live).history())
    world.clock.step(STEP)
    await judged_check(other)  # p2 wakes first
    await judged_check(svc)
    world.clock.advance(1)
    await judged_check(other)
    await flush(world)
    assert db_row(db_path, live.id)["owner"] == "main"
    assert live.id in svc.matches and live.id not in other.matches
    assert len(thread_of(world, live).history()) == seen, "something said of an outage"
    # A holder that truly stopped is taken over once a lease has gone by on the steady clock.
    await kill(svc)
    for _ in range(20):
        world.clock.advance(1)
        await judged_check(other)
        if live.id in other.matches:
            break
    assert live.id in other.matches


async def _held_by_main_and_p2_running(world: World, other: MatchService) -> LiveMatch:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None
    for each in (svc, other):
        await judged_check(each)
    return live


async def test_a_step_in_a_gateway_outage_takes_no_match_either(
        world: World, db_path: Path, other: MatchService) -> None:
    """review151: p2's gateway down since before the step, the pause it judged was cut at the
    outage's start (the outage gives its own time back), and no claim was held back."""
    live = await _held_by_main_and_p2_running(world, other)
    gateway_lost(other, None)
    world.clock.advance(1)
    world.clock.step(STEP)
    await judged_check(other)
    assert db_row(db_path, live.id)["owner"] == "main"


async def test_a_step_during_a_check_takes_no_match_either(
        world: World, db_path: Path, other: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """review151: the step landing after the check's look at the clock (its lease renewal on
    its way to the database), the claims that followed took the other's matches."""
    live = await _held_by_main_and_p2_running(world, other)
    renew = other.owners.renew

    async def renew_then_step(now: float) -> bool:
        renewed = await renew(now)
        world.clock.step(STEP)
        monkeypatch.setattr(other.owners, "renew", renew)
        return renewed
    monkeypatch.setattr(other.owners, "renew", renew_then_step)
    world.clock.advance(6)  # (a renewal due)
    await judged_check(other)
    assert db_row(db_path, live.id)["owner"] == "main"
    await judged_check(other)  # the step judged now: held back a lease
    assert db_row(db_path, live.id)["owner"] == "main"
