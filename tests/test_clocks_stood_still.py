"""The bot standing still (its process paused: a virtual machine suspended, the host asleep,
SIGSTOP; its event loop blocked; the system's clock stepped forward): nobody could play, so
the running turns get that time back before any deadline is judged, as for a gateway outage.
The real timers' loop (``cogs.umtali.startup.run_timers``), its sleep made a pause on demand."""

from __future__ import annotations

import asyncio
import logging
import types
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali import outgrown, startup
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_match
from tests.test_faults_timers import db_row


class Timers:
    """The timers' loop running, parked in each sleep until the test lets it wake: each wake
    moves the bot's clock on by the sleep (one second), and ``pause`` makes the next one last
    as long again on that clock. Any other sleeper of the loop's module (the watch beside it)
    wakes each time the clock moves on, without moving it."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.sleeps = 0
        self.parked = False
        self._go = asyncio.Semaphore(0)
        self._pause = 0.0
        self._during: Callable[[], Awaitable[Any]] | None = None
        self.task: asyncio.Task[None] | None = None
        self._moved = asyncio.Event()

    def _move(self) -> None:
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if asyncio.current_task() is not self.task:
            await self._moved.wait()
            return result
        self.parked = True
        await self._go.acquire()
        self.parked = False
        self.world.clock.advance(delay + self._pause)
        self._pause = 0.0
        during, self._during = self._during, None
        if during is not None:
            await during()
        self._move()
        self.sleeps += 1
        return result

    async def _yield(self) -> None:
        for _ in range(5):
            await asyncio.sleep(0)

    async def stand_still(self, seconds: float) -> None:
        """The process stands still ``seconds`` (on its clock) where it is, then runs on."""
        self.world.clock.advance(seconds)
        self._move()
        await self._yield()

    async def slow(self, seconds: int) -> None:
        """``seconds`` pass with the event loop running (awaiting a slow database)."""
        for _ in range(seconds):
            self.world.clock.advance(1)
            self._move()
            await self._yield()

    async def ticks(self, n: int = 2) -> None:
        """The loop wakes ``n`` times, each time checking the timers, and is parked again."""
        target = self.sleeps + n
        for _ in range(n):
            self._go.release()
        for _ in range(10_000):
            if self.sleeps >= target and self.parked:
                await flush(self.world)
                return
            await asyncio.sleep(0.001)
        raise AssertionError("the timers' loop did not go round")

    async def pause(self, seconds: float,
                    during: Callable[[], Awaitable[Any]] | None = None) -> None:
        """The bot stands still ``seconds`` (on its clock) in its next sleep, ``during`` done
        by the end of it (what another process does meanwhile)."""
        self._pause, self._during = seconds, during
        await self.ticks()


@asynccontextmanager
async def running(world: World, monkeypatch: pytest.MonkeyPatch,
                  first: Callable[[Timers], Awaitable[Any]] | None = None,
                  ) -> AsyncIterator[Timers]:
    """The timers' loop running (``Timers``); ``first``: done while its first check's lease
    renewal is on its way to the database."""
    timers = Timers(world)
    fake = types.ModuleType("asyncio")
    fake.__dict__.update(asyncio.__dict__)
    fake.sleep = timers.sleep  # type: ignore[attr-defined]
    monkeypatch.setattr(startup, "asyncio", fake)
    if first is not None:
        assert world.bot.matches is not None
        owners = world.bot.matches.owners
        renew = owners.tick

        async def waiting(now: float) -> None:
            monkeypatch.setattr(owners, "tick", renew)
            await first(timers)
            await renew(now)

        monkeypatch.setattr(owners, "tick", waiting)
    task = timers.task = asyncio.create_task(startup.run_timers(world.bot, every=1.0))
    try:
        await timers.ticks(0)  # its first check made, parked in its first sleep
        yield timers
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def _timed(world: World) -> tuple[LiveMatch, MatchService]:
    """A match with a two-minute turn timer, and the bot's service."""
    live = await start_match(world, turn_timer=2)
    assert live.deadline is not None and world.bot.matches is not None
    return live, world.bot.matches


async def test_a_pause_gives_the_running_turn_its_time_back(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    live, _ = await _timed(world)
    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        before = live.deadline
        # Suspended ten minutes, far past the turn's deadline: nobody could have played.
        await timers.pause(600)
        assert not live.over, "forfeited over a pause of the bot's"
        assert live.deadline is not None
        # The pause, to the second (the loop runs on meanwhile, a second a tick: what is left
        # at any moment is a few seconds less, by how far it ran).
        assert live.deadline == pytest.approx(before + 600, abs=1)
        assert db_row(db_path, live.id)["deadline"] == live.deadline
        assert any("stood still for 600 s" in r.getMessage() for r in caplog.records
                   if r.levelno == logging.WARNING)
        # The clock runs on as before: the turn's own time running out (a second a tick)
        # forfeits it.
        await timers.ticks(int(live.deadline + LATE + 2 - world.clock.now))
        assert live.over and db_row(db_path, live.id)["status"] == "finished"


async def test_a_blip_gives_nothing_back(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, _ = await _timed(world)
    async with running(world, monkeypatch) as timers:
        deadline = live.deadline
        await timers.pause(2)
        assert live.deadline == deadline


async def test_a_pause_in_a_gateway_outage_is_given_back_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The outage stands the clocks still already: given back when it ends, the pause with it,
    and not twice."""
    from cogs.umtali.clock import gateway_back, gateway_lost

    live, svc = await _timed(world)
    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        left = live.deadline - world.clock.now
        gateway_lost(svc, None)
        await timers.ticks()
        await timers.pause(600)
        await gateway_back(svc, None)
        await flush(world)
        assert not live.over and live.deadline is not None
        assert live.deadline - world.clock.now == pytest.approx(left, abs=5)


async def test_a_turn_taken_over_meanwhile_is_left_to_its_new_holder(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        other: MatchService) -> None:
    """Paused past its leases, the process finds its match held by another, which gave the
    turn its time when it took the match over: it gives nothing more, and lets the match go."""
    live, svc = await _timed(world)
    async with running(world, monkeypatch) as timers:
        async def taken_over() -> None:
            assert [t.id for t in await other.owners.claim()] == [live.id]

        await timers.pause(600, during=taken_over)
        saved = db_row(db_path, live.id)
        assert saved["owner"] == "p2" and saved["status"] == "active"
        assert live.id not in svc.matches
        assert other.matches[live.id].deadline == saved["deadline"] > world.clock.now


async def test_a_pause_whose_gateway_drop_is_heard_first_is_given_back_too(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Paused, the bot wakes to its gateway connection gone: discord.py may report the drop
    before the timers' loop wakes. The outage stands the clocks still from then on; the pause
    before it is given back all the same."""
    from cogs.umtali.clock import gateway_back, gateway_lost

    live, svc = await _timed(world)
    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        left = live.deadline - world.clock.now

        async def dropped() -> None:
            gateway_lost(svc, None)

        await timers.pause(600, during=dropped)
        world.clock.advance(30)
        await timers.ticks()
        await gateway_back(svc, None)
        await timers.ticks()
        assert not live.over, "forfeited over a pause of the bot's"
        assert live.deadline is not None
        assert live.deadline - world.clock.now == pytest.approx(left, abs=5)


async def test_a_paused_process_keeps_its_match_before_giving_its_time(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        other: MatchService) -> None:
    """Paused past its leases, the process gives its turns their time back while another
    looks for lapsed leases: the match is this one's or that one's, with one deadline, never
    both giving the time (memory and the database then disagree)."""
    live, svc = await _timed(world)
    leases = svc.owners.leases
    real = leases.holder

    async def holder(match_id: int) -> str | None:
        found = await real(match_id)
        await other.owners.claim()  # the other process's tick, just then
        return found

    async with running(world, monkeypatch) as timers:
        monkeypatch.setattr(leases, "holder", holder)
        await timers.pause(600)
        monkeypatch.setattr(leases, "holder", real)
        saved = db_row(db_path, live.id)
        holders = [s for s in (svc, other) if live.id in s.matches]
        assert [s.owners.name for s in holders] == [saved["owner"]]
        assert holders[0].matches[live.id].deadline == saved["deadline"] > world.clock.now


async def _in_renewal(monkeypatch: pytest.MonkeyPatch, svc: MatchService, timers: Timers,
                      meanwhile: Callable[[], Awaitable[Any]]) -> None:
    """The timers go round three times, the first check's lease renewal waiting on its way to
    the database for ``meanwhile``."""
    renew = svc.owners.tick

    async def waiting(now: float) -> None:
        monkeypatch.setattr(svc.owners, "tick", renew)
        await meanwhile()
        await renew(now)

    monkeypatch.setattr(svc.owners, "tick", waiting)
    await timers.ticks(3)


async def test_a_pause_while_a_check_is_under_way_gives_the_time_back(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process paused while the timers' check awaited the database (the check under way,
    not the loop's sleep): nobody could play all the same, and the next check does not forfeit
    the turn for it. A check slow for the database alone gives nothing back (players could
    play meanwhile): see the next test."""
    live, svc = await _timed(world)
    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        before = live.deadline
        # Stopped ten minutes while the renewal was on its way to the database.
        await _in_renewal(monkeypatch, svc, timers, lambda: timers.stand_still(600))
        assert not live.over, "forfeited over a pause of the bot's during a check"
        assert live.deadline is not None
        assert live.deadline == pytest.approx(before + 600, abs=2)
        assert db_row(db_path, live.id)["deadline"] == live.deadline


async def test_a_check_slow_for_the_database_gives_nothing_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check awaited a slow database for ten seconds while the event loop ran on (clicks
    answered, moves saved): no time is given back."""
    live, svc = await _timed(world)
    async with running(world, monkeypatch) as timers:
        deadline = live.deadline
        await _in_renewal(monkeypatch, svc, timers, lambda: timers.slow(10))
        assert live.deadline == deadline


async def test_a_schema_check_slow_for_the_database_gives_nothing_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tenth tick asks the database whether a newer bot migrated it, before the check:
    that read waiting ten seconds behind a write held up by another (the database busy, the
    fault soak's) is no pause of the bot's, and gives no time back (it did: the tick's waking
    was taken after it)."""
    live, _ = await _timed(world)
    async with running(world, monkeypatch) as timers:
        deadline = live.deadline
        asked = outgrown.stop_if_outgrown

        async def slowly(client: Any, svc: MatchService) -> bool:
            await timers.slow(10)
            return await asked(client, svc)
        monkeypatch.setattr(startup, "stop_if_outgrown", slowly)
        await timers.ticks(10)
        assert live.deadline == deadline


async def test_a_pause_after_the_clock_was_set_back_is_given_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's clock set back an hour (taken off the running turn, which keeps the time
    it had: fix160), then the bot paused: the pause is given back, though what was judged
    before is ahead of the clock. (The wall clock stepped, not the steady one: that one never
    goes back.)"""
    live, _ = await _timed(world)
    async with running(world, monkeypatch) as timers:
        world.clock.step(-3600)
        await timers.ticks()
        before = live.deadline
        assert before is not None
        await timers.pause(600)
        assert not live.over and live.deadline == pytest.approx(before + 600, abs=1)


async def test_a_match_taken_over_after_a_pause_gets_the_time_once(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        other: MatchService) -> None:
    """Another process held the match and stopped while this one was paused (a host running
    both suspended, one killed): waking, this one takes the match over, which gives its turn
    the time since that process was last alive, the pause with it; the pause is not given to
    it a second time. (Taken once a lease has gone by since waking, on the steady clock: to
    a process that stood still, every lease looks lapsed, and those of others stepped or
    paused alike on its host are theirs still: review150.)"""
    live, svc, left = await held_elsewhere_then_killed(world, other)
    async with running(world, monkeypatch) as timers:
        await timers.pause(600)
        assert live.id not in svc.matches
        await timers.ticks(16)
        taken_over_with(world, db_path, svc, live.id, left)


async def held_elsewhere_then_killed(world: World, other: MatchService
                                     ) -> tuple[LiveMatch, MatchService, float]:
    """A timed match held by ``other`` (its lease still running), which is then killed: the
    match, this process's service, and the time its turn had left when ``other`` was last
    alive."""
    from cogs.umtali.alive import heartbeat
    from tests.processes.helpers import kill

    live, svc = await _timed(world)
    theirs = await other.lookup(live.id)
    assert theirs is not None
    await other.owners.hold(theirs)
    svc.owners.drop(live)
    await heartbeat(other)
    assert theirs.deadline is not None
    left = theirs.deadline - world.clock.now
    await kill(other)
    return live, svc, left


def taken_over_with(world: World, db_path: Path, svc: MatchService, match_id: int,
                    left: float) -> None:
    """The match is held here, memory as saved, its turn with what it had ``left`` when its
    process was last alive (less the seconds the loop ran on since, a second a tick), not the
    pause more."""
    saved = db_row(db_path, match_id)
    assert saved["owner"] == svc.owners.name and match_id in svc.matches
    ours = svc.matches[match_id]
    assert ours.deadline is not None and ours.deadline == saved["deadline"]
    assert ours.deadline - world.clock.now == pytest.approx(left, abs=30), \
        "the pause given twice"


async def test_a_pause_while_the_watch_waits_for_a_check_gives_the_time_back(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch woke during a check (on time) and waited for it to end, the process then
    paused before it did: waiting, the watch saw nothing, nor did the loop (not asleep), and
    the next check forfeited the turn. The watch watches on; what it sees is judged after."""
    live, svc = await _timed(world)

    async def slow_then_paused() -> None:
        await timers.slow(1)  # the watch wakes, on time, the check still under way
        await timers.stand_still(600)

    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        before = live.deadline
        await _in_renewal(monkeypatch, svc, timers, slow_then_paused)
        assert not live.over, "forfeited over a pause while the watch waited for a check"
        assert live.deadline == pytest.approx(before + 600, abs=2)
        assert db_row(db_path, live.id)["deadline"] == live.deadline


async def test_a_pause_while_the_bot_connects_is_given_back_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Paused during the first check after a restart, before it gives back the time spent
    connecting: that time runs to the end of the pause, so the pause is given with it, and
    the watch, which saw the pause, gave it a second time."""
    from tests.test_clocks_connect import restarted_slowly

    live = await start_match(world, turn_timer=5)
    # Last alive with 100 s left in the turn, back an hour later and slow to connect.
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)

    async def paused(timers: Timers) -> None:
        for _ in range(5):
            await asyncio.sleep(0)  # the watch set going, asleep
        await timers.stand_still(600)

    async with running(world, monkeypatch, first=paused):
        await flush(world)
        assert not restored.over and restored.deadline is not None
        # Its 100 s from the end of the pause (the loop ran on since, a second a tick), not
        # the pause more.
        assert restored.deadline - world.clock.now == pytest.approx(100, abs=5), \
            "the pause given twice"
        assert db_row(db_path, restored.id)["deadline"] == restored.deadline
        assert svc.clock_state.checked

