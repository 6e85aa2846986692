"""Issue 14: several processes sharing one database (docs/processes.md).

Two match services stand for two bot processes: the bot's own (``main``) and another (``p2``)
with its own connection to the same database (a SQLite file, and a PostgreSQL database), talking
to the same (simulated) Discord. A member's click reaches whichever process the test routes it
to (as a DM reaches shard 0's): tests/processes/helpers.py.

The fixtures here, for every test of this package: the bot on each backend in turn, and the
second process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot import Settings, UmtaliBot
from cogs.umtali.service import MatchService
from tests.discord_helpers import Clock, World
from tests.processes.helpers import process


@pytest.fixture
def make_bot(made_bots: list[UmtaliBot], store_target: str | Path,
             clock: Clock) -> Callable[[], UmtaliBot]:
    """The bot's store on each backend in turn (tests/conftest.py's, on SQLite alone)."""
    def make() -> UmtaliBot:
        settings = Settings(token="test", database_url=store_target) \
            if isinstance(store_target, str) else Settings(token="test", db_path=store_target)
        bot = UmtaliBot(settings, timers=False, computer_pause=0, clock=clock)
        made_bots.append(bot)
        return bot

    return make


@pytest.fixture
async def other(world: World, store_target: str | Path) -> AsyncIterator[MatchService]:
    """A second process, ``p2``, started after the bot."""
    async with process(world, store_target, "p2") as svc:
        yield svc


@pytest.fixture
async def third(world: World, store_target: str | Path) -> AsyncIterator[MatchService]:
    """A third process, ``p3``, on its own connection to the database."""
    async with process(world, store_target, "p3") as svc:
        yield svc
