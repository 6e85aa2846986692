"""Fixtures for the bot tests: the real ``UmtaliBot`` on a real SQLite file, under SimCord;
and for the store's tests, each backend in turn (``backend``: an SQLite file, or a fresh
database on a throwaway PostgreSQL server, skipped with the reason when there is none)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import shutil
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import simcord.env
import simcord.interactions
from simcord import Env

from bot import Settings, UmtaliBot
from cogs.umtali.service import MatchService
from data.db import Database
from data.store import Store
from tests.discord_helpers import Clock, World
from tests.pg_server import PgServer, Unavailable, start_server

# A developer's checkout may hold a played data/umtali.sqlite3, beside which every test's new
# database would be refused (data/left_behind.py); tests/test_fix183_left_behind.py unsets it.
os.environ.setdefault("UMTALI_NEW_DATABASE", "1")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "umtali.sqlite3"


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 that refuses every connection for the whole test. It is held bound,
    never listening: a port found free and let go could be taken meanwhile by a server of
    another test worker (make test runs several), answering what was to find nobody there."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])


@pytest.fixture
def own_port() -> Iterator[int]:
    """A port of 127.0.0.1 for the test's own server to listen on, stop, and listen on again,
    connections refused in between. Held bound (never listening) for the whole test with
    SO_REUSEADDR, which the test's servers set too (node's, asyncio's): they can listen on it,
    while a server of another test worker, given a free port by the system, is not given it."""
    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])


# -- both backends ---------------------------------------------------------------------------

#: The database every store test's PostgreSQL database is copied from: migrated once.
TEMPLATE = "umtali_template"
_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """The session's throwaway PostgreSQL server, started by the first test that needs it."""
    try:
        server = start_server()
    except Unavailable as e:
        if os.environ.get("UMTALI_REQUIRE_POSTGRES"):
            pytest.fail(f"PostgreSQL is required here but not available: {e}", pytrace=False)
        pytest.skip(f"PostgreSQL is not available: {e}")
    yield server
    server.stop()


async def _database(server: PgServer, migrated: bool) -> str:
    """A new database on ``server``: at the latest schema, or empty."""
    if migrated and not server.template_ready:
        await server.admin(f"CREATE DATABASE {TEMPLATE}")
        db = await Database.open(server.url(TEMPLATE))
        await db.close()
        server.template_ready = True
    name = f"test_{next(_databases)}"
    template = TEMPLATE if migrated else "template0"
    await server.admin(f"CREATE DATABASE {name} TEMPLATE {template}")
    return name


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def backend(request: pytest.FixtureRequest) -> str:
    """Each store test runs on both backends."""
    return str(request.param)


async def _target(request: pytest.FixtureRequest, backend: str, tmp_path: Path,
                  migrated: bool) -> AsyncIterator[str | Path]:
    if backend == "sqlite":
        path = tmp_path / "umtali.sqlite3"
        if migrated:  # as PostgreSQL's copy of its template
            shutil.copyfile(request.getfixturevalue("migrated_file"), path)
        yield path
        return
    server: PgServer = request.getfixturevalue("postgres_server")
    name = await _database(server, migrated)
    yield server.url(name)
    await server.admin(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
async def store_target(request: pytest.FixtureRequest, backend: str,
                       tmp_path: Path) -> AsyncIterator[str | Path]:
    """Where a test's store lives: a new SQLite file or a new PostgreSQL database, each
    already at the latest schema; reopening it reaches the same database."""
    async for target in _target(request, backend, tmp_path, migrated=True):
        yield target


@pytest.fixture
async def empty_target(request: pytest.FixtureRequest, backend: str,
                       tmp_path: Path) -> AsyncIterator[str | Path]:
    """As ``store_target``, but empty: no schema yet."""
    async for target in _target(request, backend, tmp_path, migrated=False):
        yield target


@pytest.fixture
async def stores(store_target: str | Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database, as two processes have."""
    one, two = await Store.open(store_target), await Store.open(store_target)
    yield one, two
    await one.close()
    await two.close()


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


@pytest.fixture(scope="session")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file opened (so migrated) by the store once for the worker, then closed:
    each bot test starts on a copy of it, where opening and migrating a new file each time
    cost some 60 ms a test (over a thousand tests). Migrating itself has tests of its own,
    and every bot still opens the copy as it would any existing database."""
    path = tmp_path_factory.mktemp("migrated") / "umtali.sqlite3"

    async def made() -> None:
        await (await Store.open(path)).close()
    # In a thread of its own: it may first be asked for inside a test's running loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, made()).result()
    assert not Path(f"{path}-wal").exists()  # closed: everything is in the file
    return path


@pytest.fixture
def make_bot(made_bots: list[UmtaliBot], db_path: Path, clock: Clock,
             migrated_file: Path) -> Callable[[], UmtaliBot]:
    def make() -> UmtaliBot:
        if not db_path.exists():  # a test that made its own database keeps it
            shutil.copyfile(migrated_file, db_path)
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


@pytest.fixture
async def other(world: World, db_path: Path) -> AsyncIterator[MatchService]:
    """A second process, ``p2``, on its own connection to the bot's database (the tests of
    ``tests/processes`` have their own, on either backend)."""
    store = await Store.open(db_path)
    svc = MatchService(world.bot, store, clock=world.clock, computer_pause=0, owner="p2")
    await svc.load_active()
    yield svc
    await svc.close()
    await store.close()


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """The Discord locale of each member's client (by user id); en-US for anyone else."""
    chosen: dict[int, str] = {}
    made = simcord.interactions.base_payload

    def with_locale(backend: Any, **fields: Any) -> Any:
        record, payload = made(backend, **fields)
        payload["locale"] = chosen.get(fields["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return chosen


class _SettleAsyncio:
    """``asyncio`` as SimCord's settling sees it (``install_settle_turns``): the same but for
    ``sleep``."""

    def __init__(self, listed: Callable[[Any], list[Any]]) -> None:
        self._listed = listed
        self._last: list[Any] = []

    def active_callbacks(self, state: Any) -> list[Any]:
        self._last = self._listed(state)
        return self._last

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if delay > 0 and self._last and all(r.when is None for r in self._last):
            delay = 0  # only callbacks queued for the loop's next turn: one turn, not 50 ms
        return await asyncio.sleep(delay, result)


@pytest.fixture(scope="session", autouse=True)
def settle_in_loop_turns() -> Iterator[None]:
    """SimCord's settling (after every command and click, and ``env.settle``) slept its 50 ms
    "idle" whenever callbacks were queued and no task was pending, even when they were only
    queued for the loop's next turn (a finished task's done callbacks): most of a command's
    time. It takes that turn instead; a timer still waits the 50 ms, and what counts as
    settled is unchanged (its checks run again after each wait). Its one positive sleep
    (``Env._settle_internal``'s) is the one changed; a SimCord without these names is left
    as it is, only slower."""
    listed = getattr(simcord.env, "_active_callbacks", None)
    if listed is None or getattr(simcord.env, "asyncio", None) is not asyncio:
        yield
        return
    seen = _SettleAsyncio(listed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simcord.env, "_active_callbacks", seen.active_callbacks)
        patch.setattr(simcord.env, "asyncio", seen)
        yield


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the same sessions on every run, so a failure can be replayed."""
    seeds = iter(range(1000, 10**6))
    monkeypatch.setattr(MatchService, "new_seed", lambda self: next(seeds))
    # A click's id comes from the clock: uncut, a session is dealt from its seed alone.
    # (tests/test_fair_cut.py cuts with the clicks' own ids.)
    monkeypatch.setattr(MatchService, "cut_of", lambda self, interaction: "")


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
