"""A bot restarted and stopped again before it was connected to Discord (its first timer check
never came): nobody could play meanwhile, so the next start gives each running turn the time it
had when its clocks last ran, once. The restart had moved each deadline on by the time
offline, and the note of when the bot was last alive was still the one from before: a crash
before connecting gave the first outage's time over again at the next start (a bot restarted
again and again while cut off from Discord, each time more), and a clean stop noted its clocks
as running until then, taking the time spent connecting from the turn. SimCord, virtual time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_lost
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, start_match
from tests.test_faults_timers import db_row

#: Seconds left in the turn when the bot was cut off from Discord.
LEFT = 200.0


async def _cut_off_and_restarted(world: World,
                                 make_bot: Callable[[], UmtaliBot]) -> tuple[UmtaliBot, int]:
    """The gateway drops with ``LEFT`` seconds of the turn left; the bot, still cut off, is
    killed and started an hour later: the new bot, brought up to before its connection."""
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - LEFT
    gateway_lost(svc, None)
    world.clock.advance(10)
    await heartbeat(svc)
    world.clock.advance(3600)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.deadline == pytest.approx(world.clock.now + LEFT, abs=2)
    return again, live.id


def _brought_back(bot: UmtaliBot, match_id: int) -> LiveMatch:
    assert bot.matches is not None
    return bot.matches.matches[match_id]


async def test_a_crash_before_connecting_gives_the_outage_back_once(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    _, match_id = await _cut_off_and_restarted(world, make_bot)
    # Killed again a minute later, never connected; started once more.
    world.clock.advance(60)
    third = make_bot()
    await world.env.restart_bot(third)
    restored = _brought_back(third, match_id)
    assert restored.deadline == pytest.approx(world.clock.now + LEFT, abs=2), \
        "the first outage's hour given back a second time"
    assert db_row(db_path, match_id)["deadline"] == restored.deadline


async def test_a_stop_before_connecting_keeps_the_turns_time(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    again, match_id = await _cut_off_and_restarted(world, make_bot)
    # Stopped cleanly five minutes later, never connected; started once more.
    world.clock.advance(300)
    assert again.matches is not None
    await again.matches.close()
    third = make_bot()
    await world.env.restart_bot(third)
    restored = _brought_back(third, match_id)
    assert restored.deadline == pytest.approx(world.clock.now + LEFT, abs=2), \
        "the time spent connecting taken from the turn"
    assert db_row(db_path, match_id)["deadline"] == restored.deadline
