"""The time given back after a gateway outage, on its fault paths: a save of it that fails is
owed (the turn not judged meanwhile) and paid at a later check, never lost to a forfeit; and an
outage under way at the first check after a restart is not given twice (once as time spent
connecting, once as the outage). SimCord, virtual time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, play_out, start_match
from tests.test_clocks_connect import restarted_slowly
from tests.test_faults_timers import db_row, to_turn_end

#: How long the gateway is down.
OUTAGE = 600.0


def failing(monkeypatch: pytest.MonkeyPatch, store: Any, times: int) -> None:
    """``store.set_deadline`` fails ``times`` times (the database busy, a connection lost)."""
    real = store.set_deadline
    left = [times]

    async def set_deadline(*args: Any, **kwargs: Any) -> bool:
        if left[0] > 0:
            left[0] -= 1
            raise OSError("the database is unreachable")
        return bool(await real(*args, **kwargs))

    monkeypatch.setattr(store, "set_deadline", set_deadline)


@pytest.mark.parametrize("failures", [1, 3])
async def test_time_owed_after_a_failed_save_is_paid_later_not_forfeited(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, failures: int) -> None:
    live = await start_match(world, turn_timer=5)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    world.clock.now = deadline - 10  # 10 s left when the connection drops
    gateway_lost(svc, None)
    world.clock.advance(OUTAGE)
    failing(monkeypatch, svc.store, failures)
    await gateway_back(svc, None)
    # The save failed: nothing changed, in memory as in the database...
    assert live.deadline == deadline and db_row(db_path, live.id)["deadline"] == deadline
    # ... and the turn, past its old deadline, is not judged until its time is paid.
    for _ in range(failures):
        await svc.check_timers()
        assert not live.over, "forfeited for the outage, its time not given back"
    assert live.deadline == pytest.approx(deadline + OUTAGE, abs=1)
    assert db_row(db_path, live.id)["deadline"] == live.deadline
    # Paid once: the clock runs on from there.
    await svc.check_timers()
    assert live.deadline == pytest.approx(deadline + OUTAGE, abs=1) and not live.over
    assert live.deadline - world.clock.now == pytest.approx(10)


async def test_an_outage_under_way_at_the_first_check_is_given_back_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=5)
    # Last alive with 100 s left; back later, slow to connect.
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    # Connected, then the connection drops before the first check, and comes back later.
    gateway_lost(svc, None)
    world.clock.advance(100)
    await svc.check_timers()  # the first check, with the outage under way
    world.clock.advance(100)
    await gateway_back(svc, None)
    await svc.check_timers()
    # Every second since the restart was given back once: the turn still has its 100 s.
    assert not restored.over
    assert restored.deadline == pytest.approx(world.clock.now + 100, abs=1)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline


async def test_a_move_while_time_is_owed_is_judged_with_it(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blitz: a move made while the outage's time is still owed (its save failed) spends
    none of the reserve for the outage."""
    live = await start_match(world, time_control="blitz")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    await to_turn_end(world, live)
    reserve = live.reserves[seat]
    assert reserve > 0
    # 10 s of the turn's own time left when the connection drops.
    world.clock.now = live.deadline - reserve - 10
    gateway_lost(svc, None)
    world.clock.advance(OUTAGE)
    failing(monkeypatch, svc.store, 1)
    await gateway_back(svc, None)
    world.clock.advance(5)  # the turn's own time, 5 s of its 10
    await play_out(world, live, moves=1)
    assert live.session.to_act != seat and not live.over
    assert live.reserves[seat] == pytest.approx(reserve)
    assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(reserve)


async def test_two_payments_at_once_give_the_time_once_and_in_full(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A check paying what is owed, its save slow, while another outage ends: both amounts
    are given, once."""
    live = await start_match(world, turn_timer=5)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    gateway_lost(svc, None)
    world.clock.advance(100)
    failing(monkeypatch, svc.store, 1)
    await gateway_back(svc, None)  # 100 s owed
    real = svc.store.set_deadline
    held, entered = asyncio.Event(), asyncio.Event()

    async def slow(*args: Any, **kwargs: Any) -> bool:
        entered.set()
        await held.wait()
        return bool(await real(*args, **kwargs))

    monkeypatch.setattr(svc.store, "set_deadline", slow)
    paying = asyncio.ensure_future(svc.check_timers())
    await asyncio.wait_for(entered.wait(), 5)  # the check is saving the 100 s
    gateway_lost(svc, None)
    world.clock.advance(200)
    ended = asyncio.ensure_future(gateway_back(svc, None))  # 200 s more, for the same turn
    await asyncio.sleep(0.05)
    held.set()
    await asyncio.gather(paying, ended)
    await svc.check_timers()
    assert live.deadline == pytest.approx(deadline + 300, abs=1)
    assert not live.over


@pytest.mark.parametrize("failures", [0, 1])
async def test_an_outage_over_before_the_first_check_is_not_also_connecting_time(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch, failures: int) -> None:
    live = await start_match(world, turn_timer=5)
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    # Connected; the connection drops and comes back (its save failing, or not), then the
    # first check: the connecting time and the outage are each given, once.
    gateway_lost(svc, None)
    world.clock.advance(100)
    failing(monkeypatch, svc.store, failures)
    await gateway_back(svc, None)
    world.clock.advance(10)  # playable: the turn's own time
    await svc.check_timers()
    assert not restored.over
    assert restored.deadline == pytest.approx(world.clock.now + 90, abs=1)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline
