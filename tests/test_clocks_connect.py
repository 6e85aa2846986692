"""Time the bot spends connecting to Discord after a restart is offline time too: the matches
it brought back before connecting get that time back at its first timer check, in memory as in
the database (docs/RELIABILITY.md: "while the bot is offline nobody can play, so nobody loses
time"). SimCord, virtual time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_faults_timers import db_row

#: How long connecting to Discord takes after the matches are brought back (a slow gateway).
CONNECTING = 150.0


def _slow_to_connect(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's clock moves on between bringing its matches back (``setup_hook``) and being
    connected, as when Discord's gateway is slow to let it in."""
    setup = UmtaliBot.setup_hook

    async def slow(bot: UmtaliBot) -> None:
        await setup(bot)
        world.clock.advance(CONNECTING)

    monkeypatch.setattr(UmtaliBot, "setup_hook", slow)


async def restarted_slowly(world: World, make_bot: Callable[[], UmtaliBot],
                           monkeypatch: pytest.MonkeyPatch, live: LiveMatch, left: float,
                           away: float = 0.0) -> tuple[MatchService, LiveMatch]:
    """The bot last alive with ``left`` seconds in the turn, back ``away`` seconds after its
    deadline, and slow to connect: the new service and the match it brought back."""
    assert live.deadline is not None and world.bot.matches is not None
    world.clock.now = live.deadline - left
    await heartbeat(world.bot.matches)
    if away:
        world.clock.now = live.deadline + away
    _slow_to_connect(world, monkeypatch)
    again = make_bot()
    await world.env.restart_bot(again)
    svc = again.matches
    assert svc is not None
    return svc, svc.matches[live.id]


async def test_the_time_spent_connecting_after_a_restart_is_given_back(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=5)
    seat = live.session.to_act
    # Last alive with 100 s left in the turn; back an hour later, and slow to connect.
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    # The first check, once connected: the turn has its 100 s from now, not from before.
    await svc.check_timers()
    await flush(world)
    now = world.clock.now
    assert not restored.over, "forfeited for the time the bot spent connecting"
    assert restored.deadline == pytest.approx(now + 100, abs=1)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline
    deadline = restored.deadline
    assert deadline is not None
    # Given once: later checks run the clock as usual, with its warning and its forfeit.
    await svc.check_timers(now=deadline - 30)
    await flush(world)
    assert restored.deadline == deadline
    assert "seconds left" in thread_of(world, restored).history()[-1].content
    await svc.check_timers(now=deadline + LATE + 1)
    await flush(world)
    assert restored.over and restored.session.winner == 1 - seat


async def test_a_reserve_is_not_spent_while_the_bot_connects(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="blitz")
    seat = live.session.to_act
    assert live.deadline is not None and world.bot.matches is not None
    # Stopped 70 s into a blitz turn (its own 30 s gone, 40 s of the reserve spent): a quick
    # restart, but a slow connection.
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 80)
    await svc.check_timers()
    await flush(world)
    assert not restored.over
    assert restored.deadline == pytest.approx(world.clock.now + 80, abs=1)
    assert db_row(db_path, live.id)["deadline"] == restored.deadline
    assert restored.reserves[seat] == 120
