"""A player's turn held for the computer's reply (fix170) set a timer that stayed pending
after the computer answered: nothing to release, yet every hold kept a live timer on the
event loop for its full pause plus ``HOLD`` (and SimCord, waiting for the bot to settle,
waited each one out: 40-80 s a practice session in the tests). Once the computer's turn
ends, the hold's timer is gone with it. The real discord.py path through SimCord."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.sending import Sending
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, cut, play, play_out
from umtali.players import GreedyPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)


class _Timers:
    """Every timer the bot sets to release a hold, and whether it has fired."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.set: list[tuple[asyncio.TimerHandle, list[bool]]] = []
        loop = asyncio.get_running_loop()
        real = loop.call_later

        def call_later(delay: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            if getattr(callback, "__func__", None) is not Sending._release:
                return real(delay, callback, *args, **kwargs)
            fired = [False]

            def release(*a: Any) -> None:
                fired[0] = True
                callback(*a)
            handle = real(delay, release, *args, **kwargs)
            self.set.append((handle, fired))
            return handle
        monkeypatch.setattr(loop, "call_later", call_later)

    def fired(self) -> int:
        return sum(1 for _, fired in self.set if fired[0])

    def pending(self) -> int:
        return sum(1 for handle, fired in self.set if not fired[0] and not handle.cancelled())


async def _practice(world: World) -> tuple[MatchService, LiveMatch]:
    """A practice at the easy level, cut and under way."""
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    await cut(world, r)
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    return svc, live


async def test_no_hold_timer_outlives_the_computers_reply(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    timers = _Timers(monkeypatch)
    svc, live = await _practice(world)
    # A short pause, as in play (0 in these tests): the player's turn is then always held.
    svc.computers.pause = 0.05
    for _ in range(16):
        await play_out(world, live, moves=1)
        # The computer has answered (``play_out`` waits for it): no hold is still timing.
        assert timers.pending() == 0, timers.set
    # Holds were made (the test would pass vacuously otherwise), and each ended with the
    # computer's turn, its timer cancelled: none waited out (the easy computer answers in
    # its 0.05 s pause, far within the hold's 2 s more).
    assert len(timers.set) >= 3
    assert timers.fired() == 0


async def test_a_close_lets_a_hold_go_with_its_timer(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop while the computer is still in its pause: the hold's timer goes with the close
    (the turn stays saved as unsent, posted at the next start)."""
    timers = _Timers(monkeypatch)
    svc, live = await _practice(world)
    svc.computers.pause = 60.0  # the computer still pausing when the bot closes
    for _ in range(4):
        if timers.set:
            break
        move = GreedyPlayer().choose(live.session.view(live.session.to_act))
        await play(world, live, move)
    assert timers.pending() == 1
    await svc.delivery.close()
    assert timers.pending() == 0 and timers.fired() == 0
