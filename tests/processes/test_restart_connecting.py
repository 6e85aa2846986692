"""A process restarted under its name takes its matches back at its start (``setup_hook``),
their clocks standing still until it is connected: its first check gives that time back, as
nobody could play while it connected (``clock._connected``). Connecting may take longer than a
lease (a bot with several shards identifies one every 5 s; Discord slow). The leases were
renewed only once the timers ran, at READY: the other process took the matches over, gave
back only the time up to its claim, and ran their clocks while the restarted process, whose
servers they are on, was still connecting: a turn forfeited for the bot's own time (found by
review27). Now the leases are renewed from the start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot as bot_module
from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.service import MatchService
from data.store import Store
from settings import Settings
from tests.discord_helpers import World, start_match
from tests.processes.helpers import kill, main_of, results, row, settle


async def _renewed(world: World, match_id: int) -> None:
    """A renewal or more of the restarted process at the clock's time: waited for (up to 10
    s), not slept for, as a loaded machine may run none in a fixed hundredth of a second and
    the lease then lapsed by the test's own doing. None coming (renewals not running while it
    connects, the defect), the loop goes on and the other process takes the match."""
    for _ in range(1000):
        if (await row(world, match_id))["lease_until"] >= world.clock() + LEASE - 1e-3:
            return
        await asyncio.sleep(0.01)


async def test_a_restart_connecting_slowly_does_not_cost_its_turns_their_time(
        world: World, store_target: str | Path, other: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    assert live.deadline is not None
    deadline = live.deadline
    await heartbeat(main)
    await kill(main)
    # A renewal every hundredth of a second (the loop below moves the bot's clock on).
    monkeypatch.setattr(bot_module, "RENEW_EVERY", 0.01)
    store = await Store.open(store_target)
    settings = (Settings(token="test", db_path=store_target) if isinstance(store_target, Path)
                else Settings(token="test", database_url=store_target))
    again = UmtaliBot(settings, store=store, sync_commands=False, computer_pause=0,
                      clock=world.clock)
    try:
        await again.setup_hook()  # the process started; never connected, READY never comes
        assert again.matches is not None and live.id in again.matches.matches
        # Connecting, past the turn's deadline: no check of its own. The other process
        # ticks on meanwhile, its ticks a lease's two thirds apart.
        step = LEASE * 2 / 3
        while world.clock() < deadline + 2 * LEASE + 10:
            world.clock.advance(step)
            await other.check_timers()
            await _renewed(world, live.id)
        await settle(world, other)
        saved = await row(world, live.id)
        assert saved["status"] == "active", saved["how"]
        assert await results(world) == []
        assert live.id not in other.matches
    finally:
        # Not ``again.close()``: discord.py's would unload the extension, dropping every
        # ``cogs.umtali`` module from ``sys.modules`` under the tests that follow.
        for task in (again._timers, again._seasons):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        if again.matches is not None:
            await again.matches.close()
        await store.close()
