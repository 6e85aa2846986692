"""PostgreSQL out of reach as a member types in a command's option (its socket gone, the
bot's connections cut): the autocomplete that reads the database fails, and nobody can be told
(an autocomplete answers with choices only). The database failing for now is no bug: a warning,
as a late autocomplete is, not discord.py's ERROR with a traceback (the conftest fails a test
that logs one)."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World
from tests.pg_server import PgServer

# The bot on the test's PostgreSQL database (the conftest's is on an SQLite file).
from tests.test_discord_postgres import make_bot as make_bot
from tests.test_review24_database_down import ON_POSTGRES, out_of_reach


@ON_POSTGRES
async def test_an_autocomplete_with_the_server_out_of_reach_is_no_error(
        world: World, postgres_server: PgServer, caplog: pytest.LogCaptureFixture,
        backend: str) -> None:
    caplog.set_level(logging.WARNING)
    async with out_of_reach(postgres_server):
        await world.carol.autocomplete(world.channel, "umtali leaderboard", "season", "")
        await world.env.settle()  # (answered once the pool gives up)
    said = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name.startswith("discord.app_commands")]
    assert said and all(level == "WARNING" for level, _ in said), said
    assert all(r.exc_info is None for r in caplog.records
               if r.name.startswith("discord.app_commands")), "a traceback for no bug"
