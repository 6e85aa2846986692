"""Each session's start and end leave one INFO line for whoever runs the bot (review166: real
bot.py at INFO, three full sessions, nothing logged between "Invite link" and "Closed"): ids,
never names, and no line per move. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
import re

import pytest

from tests.discord_helpers import World, end_match_as, manager, play_out, start_match
from tests.test_records_discord import resign

LOGGER = "cogs.umtali.end_log"


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == LOGGER and r.levelno == logging.INFO]


async def test_a_played_out_session_logs_its_start_and_its_end(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    live = await start_match(world)
    world.clock.advance(125)
    await play_out(world, live)
    start, end = _lines(caplog)
    assert start == f"match {live.id} started: guild {world.guild.id}, rated, " \
                    f"{live.session.rules.name} rules", start
    won = live.session.games_won
    assert re.fullmatch(
        rf"match {live.id} ended: guild {world.guild.id}, rated, seat {live.session.winner} "
        rf"won \(played out\), games {won[0]}-{won[1]}, \d+m\d\ds, "
        rf"{len(live.session.moves)} moves", end), end
    names = {world.alice.user.name, world.bob.user.name, *live.names}
    assert not [n for n in names if n in start + end], (start, end)


async def test_a_resignation_and_an_admin_s_ending_log_one_line_each(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    live = await start_match(world)
    world.clock.advance(3 * 3600 + 61)
    await resign(world, world.bob, live)
    ended = [line for line in _lines(caplog) if " ended: " in line]
    assert ended == [f"match {live.id} ended: guild {world.guild.id}, rated, seat 0 won "
                     f"(resigned), games 0-0, 3h01m01s, {len(live.session.moves)} moves"], ended
    caplog.clear()
    again = await start_match(world)
    admin = manager(world)
    await end_match_as(world, admin, member=world.alice)
    ended = [line for line in _lines(caplog) if " ended: " in line]
    assert len(ended) == 1 and ended[0].startswith(
        f"match {again.id} ended: guild {world.guild.id}, rated, no result (abandoned by "
        f"server admin {admin.id}), games 0-0, "), ended
