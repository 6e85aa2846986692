"""Fixtures for the bot tests: the real ``UmtaliBot`` on a real SQLite file, under SimCord."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from simcord import Env

from bot import Settings, UmtaliBot
from cogs.umtali.service import MatchService
from tests.discord_helpers import Clock, World


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "umtali.sqlite3"


@pytest.fixture
async def made_bots() -> AsyncIterator[list[UmtaliBot]]:
    """Every bot a test makes; each is closed after SimCord shut down (fixture order)."""
    bots: list[UmtaliBot] = []
    yield bots
    for bot in bots:
        if bot.matches is not None:
            await bot.matches.close()
            await bot.matches.store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_bot(made_bots: list[UmtaliBot], db_path: Path, clock: Clock) -> Callable[[], UmtaliBot]:
    def make() -> UmtaliBot:
        # Timers are driven by the tests (check_timers with a chosen time), not by a loop.
        bot = UmtaliBot(Settings(token="test", db_path=db_path), timers=False,
                        computer_pause=0, clock=clock)
        made_bots.append(bot)
        return bot

    return make


@pytest.fixture
def simcord_bot(make_bot: Callable[[], UmtaliBot]) -> UmtaliBot:
    return make_bot()


@pytest.fixture
def world(simcord_env: Env, clock: Clock) -> World:
    guild = simcord_env.create_guild("Railway Club")
    channel = guild.create_text_channel("games")
    return World(
        simcord_env, guild, channel,
        guild.add_member(simcord_env.create_user("ada")),
        guild.add_member(simcord_env.create_user("ben")),
        guild.add_member(simcord_env.create_user("cy")),
        clock,
    )


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the same sessions on every run, so a failure can be replayed."""
    seeds = iter(range(1000, 10**6))
    monkeypatch.setattr(MatchService, "new_seed", lambda self: next(seeds))


@pytest.fixture(autouse=True)
def quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """A practice hand's review searches for seconds; SimCord waits for the bot's work, five
    seconds at most: the coach judges with small budgets in tests."""
    from cogs.umtali.coach import Coach

    monkeypatch.setattr(Coach, "budget", 200)
    monkeypatch.setattr(Coach, "search", 200)


@pytest.fixture(autouse=True)
def no_swallowed_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """discord.py only logs a failing component callback; make such a log fail the test."""
    caplog.set_level(logging.ERROR)
    yield
    bad = [r for r in caplog.get_records("call")
           if r.levelno >= logging.ERROR and r.name.startswith(("discord", "cogs", "bot"))
           and not getattr(r, "expected", False)]
    if bad:
        pytest.fail("errors were logged: " + "; ".join(r.getMessage() for r in bad),
                    pytrace=False)
