"""An interaction that expired before the bot answered it (Discord's "Unknown interaction",
10062: the bot was slow, or the network): nobody can be told any more, and it is no bug in the
code, so it is logged as a warning that the bot was late, not as an unhandled ERROR with a
traceback."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from tests.discord_helpers import World


async def test_a_command_answered_too_late_logs_no_error(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="cogs.umtali.errors")
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                           message="Unknown interaction", times=None)
    await world.alice.slash(world.channel, "umtali rules")
    await world.env.settle()
    said = [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "cogs.umtali.errors"]
    assert said == [(logging.WARNING, said[0][1])] and "expired" in said[0][1], said
    # It did reach the tree's error handler (SimCord keeps what it saw there).
    [seen] = world.env.errors
    assert isinstance(seen, app_commands.CommandInvokeError)
    assert isinstance(seen.original, discord.NotFound) and seen.original.code == 10062
