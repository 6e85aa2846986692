"""The computer's move made while the bot connects to Discord after a restart: the player's
turn that it starts runs from there, yet nobody can play until the bot is connected, so that
turn gets the time spent connecting back too, as a turn brought back running does
(tests/test_clocks_connect.py). SimCord, virtual time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from tests.discord_helpers import World, flush, start_practice
from tests.test_clocks_connect import CONNECTING
from tests.test_faults_timers import db_row
from umtali.players import GreedyPlayer


async def test_a_turn_the_computer_starts_while_the_bot_connects_gets_that_time_back(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_practice(world)
    svc = world.bot.matches
    assert svc is not None and live.computer_seat is not None
    seat = 1 - live.computer_seat
    # The player's turn ends; the bot is killed before its computer replies.
    monkeypatch.setattr(svc.computers, "next", lambda live: None)
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        assert (await svc.act(live, live.player_ids[seat], move)).ok
    await flush(world)
    assert live.session.to_act == live.computer_seat and live.deadline is None
    await heartbeat(svc)
    world.clock.advance(60)
    # Back a minute later: the computer replies at once, then the bot is slow to connect.
    setup = UmtaliBot.setup_hook

    async def slow(bot: UmtaliBot) -> None:
        await setup(bot)
        assert bot.matches is not None
        await bot.matches.computer_idle()
        world.clock.advance(CONNECTING)

    monkeypatch.setattr(UmtaliBot, "setup_hook", slow)
    again = make_bot()
    await world.env.restart_bot(again)
    restarted = again.matches
    assert restarted is not None
    restored = restarted.matches[live.id]
    assert restored.session.to_act == seat and restored.deadline is not None
    turn = restored.control.turn + restored.reserves[seat]
    # The first check, once connected: the player's turn runs from now.
    await restarted.check_timers()
    await flush(world)
    assert restored.deadline == pytest.approx(world.clock.now + turn, abs=2), \
        "the time spent connecting counted against the player"
    assert db_row(db_path, live.id)["deadline"] == restored.deadline
