"""A newer bot migrating the database under a running one (several processes upgraded one at a
time, or a newer checkout started beside the bot): the running bot, a real process on the
loopback Discord, stops within ten seconds with one ERROR line, gives its matches up (their
leases released, for the newer bot to take at once) and exits with the database's exit status
and the sentence a start on that schema would print. It never plays on a schema it was not
tested against. On an SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from aiohttp import web
from discord.backoff import ExponentialBackoff

import bot as bot_module
from bot import EXIT_DATABASE_ERROR, serve
from cogs.umtali.service import MatchService
from cogs.umtali.startup import run_timers
from data.db import Database, DatabaseUnusable
from data.migrations import MIGRATIONS
from data.store import Store
from settings import Settings
from tests.loopback.driver import accept
from tests.loopback.harness import BotProcess, loopback_server
from tests.loopback.launch import TIMERS_VAR
from tests.loopback.server import Member
from tests.test_stop_in_flight import BACKOFF, _Refused

NEWER = len(MIGRATIONS) + 1
#: Seconds between the timers' checks here (1 s in use): the schema is looked at every ten,
#: a second apart, not ten.
EVERY = 0.1


def _number_newer(path: Path) -> None:
    with sqlite3.connect(path, timeout=10) as file:
        file.execute(f"PRAGMA user_version = {NEWER}")
    file.close()


async def _migrate_newer(target: str | Path) -> None:
    """What a newer bot's start does to the schema's number."""
    if isinstance(target, Path):
        # In a thread: a bot in this process (``serve``) may be inside a transaction that
        # needs the event loop to end; a wait for its lock that blocked the loop waited out
        # the whole 10 s and answered "locked" (1 run in 6). Tried again all the same, as a
        # newer bot's start would be.
        for _ in range(100):
            try:
                await asyncio.to_thread(_number_newer, target)
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e):
                    raise
                await asyncio.sleep(0.1)
        raise AssertionError("the database stayed locked")
    db = await Database.open(target)
    async with db.transaction() as tx:
        await tx.execute("UPDATE schema_version SET version = ?", (NEWER,))
    await db.close()


async def _until(check: Callable[[], Awaitable[object]], what: str,
                 timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_a_bot_whose_database_a_newer_bot_migrated_stops_and_gives_its_matches_up(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store_target: str | Path) -> None:
    on_sqlite = isinstance(store_target, Path)
    db_path = store_target if isinstance(store_target, Path) else tmp_path / "unused.sqlite3"
    env = {TIMERS_VAR: str(EVERY)}
    if not on_sqlite:
        env["UMTALI_DATABASE_URL"] = str(store_target)
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        bot = BotProcess(server, db_path, tmp_path, env=env)
        try:
            await bot.start()
            answer = await server.slash(alice, server.channel_id, "umtali challenge",
                                        {"opponent": Member(bob)})
            assert answer.response is not None
            await accept(server, bob, answer.response)
            store = await Store.open(store_target)
            try:
                async def held() -> bool:
                    # Its table posted too: the accept done, not cut short by the close (its
                    # save failing, the table taken down: a DELETE the loopback does not know).
                    rows = await store.db.fetchall("SELECT lease_until FROM matches WHERE "
                                                   "status = 'active' AND table_message_id "
                                                   "IS NOT NULL")
                    return len(rows) == 1 and float(rows[0]["lease_until"]) > 0
                await _until(held, "the match held by the bot, its table posted")
                await _migrate_newer(store_target)
                proc = bot.proc
                assert proc is not None

                async def ended() -> bool:
                    return proc.poll() is not None
                # Looked at every ten checks.
                await _until(ended, "the bot to stop", timeout=30)
                assert proc.returncode == EXIT_DATABASE_ERROR
                rows = await store.db.fetchall("SELECT status, lease_until FROM matches")
                assert [(r["status"], float(r["lease_until"])) for r in rows] == [("active", 0)]
            finally:
                await store.close()
        finally:
            await bot.stop()
    log = bot.log.read_text()
    assert "Traceback" not in log, log
    errors = [line for line in log.splitlines() if " ERROR " in line]
    assert len(errors) == 1, log
    assert f"A newer bot migrated the database to schema {NEWER}" in errors[0]
    assert f"has schema version {NEWER}, newer than this bot knows ({NEWER - 1})" in log, log


async def test_a_signal_during_its_close_keeps_the_outgrown_bots_exit_status(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """SIGTERM (systemd stopping it, say) reaching the bot while it closes because a newer bot
    migrated its database: that close goes on once, and the bot still says why it stopped
    (``DatabaseUnusable``: its sentence, exit status 2), its matches given up. ``serve`` in
    this process, the signal sent as the matches close."""
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    real_close = MatchService.close
    closes: list[str] = []

    async def signalled_first(svc: MatchService) -> None:
        closes.append("close")
        if len(closes) == 1:
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.sleep(0.2)  # the signal heard meanwhile
        await real_close(svc)

    monkeypatch.setattr(MatchService, "close", signalled_first)
    monkeypatch.setattr(bot_module, "run_timers", functools.partial(run_timers, every=EVERY))
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        modules = {k: v for k, v in sys.modules.items() if k.startswith("cogs.umtali")}
        served = asyncio.create_task(serve(Settings(token="loopback-token", db_path=db)))
        try:
            await server.wait_connected(server.identifies + 1, timeout=30)
            answer = await server.slash(alice, server.channel_id, "umtali challenge",
                                        {"opponent": Member(bob)})
            assert answer.response is not None
            await accept(server, bob, answer.response)

            async def posted() -> bool:
                with sqlite3.connect(db) as c:
                    rows = c.execute("SELECT 1 FROM matches WHERE table_message_id IS NOT "
                                     "NULL AND lease_until > 0").fetchall()
                c.close()
                return bool(rows)
            await _until(posted, "the match held, its table posted")
            await _migrate_newer(db)
            with pytest.raises(DatabaseUnusable, match=f"has schema version {NEWER}"):
                await asyncio.wait_for(served, 30)
        finally:
            served.cancel()
            with contextlib.suppress(BaseException):
                await served
            sys.modules.update(modules)
    assert closes == ["close"], "closed once"
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT status, lease_until FROM matches").fetchall()
    c.close()
    assert [(s, float(u)) for s, u in rows] == [("active", 0)]
    for r in caplog.records:
        # Meant (the conftest fails a test that logs an error).
        setattr(r, "expected", "A newer bot migrated" in r.getMessage())  # noqa: B010
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING
                and not getattr(r, "expected", False)], caplog.text


async def test_an_outgrown_bot_in_a_reconnects_backoff_ends_once_closed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A newer bot migrates the database while this one's gateway is down: its close is done
    at the next look, and the process ends then, not when discord.py's backoff (a minute
    here; up to 17 in an outage) lets its connect look again. ``serve`` in this process."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "umtali.sqlite3"
    monkeypatch.setattr(ExponentialBackoff, "delay", lambda self: 60.0)
    # The schema looked at every half second (ten ticks), not every ten.
    monkeypatch.setattr(bot_module, "run_timers", functools.partial(run_timers, every=0.05))
    async with loopback_server(monkeypatch) as server:
        modules = {k: v for k, v in sys.modules.items() if k.startswith("cogs.umtali")}
        served = asyncio.create_task(serve(Settings(token="loopback-token", db_path=db)))
        try:
            await server.wait_connected(server.identifies + 1, timeout=30)
            # The gateway down (aiohttp's, as the loopback's gateway finds it).
            monkeypatch.setattr(web, "WebSocketResponse", _Refused)
            await server.drop_gateway()

            async def backing_off() -> bool:
                return any(BACKOFF.search(r.getMessage()) for r in caplog.records)
            await _until(backing_off, "the reconnect's backoff")
            await _migrate_newer(db)
            began = time.monotonic()
            with pytest.raises(DatabaseUnusable, match=f"has schema version {NEWER}"):
                await asyncio.wait_for(served, 20)
            took = time.monotonic() - began
        finally:
            served.cancel()
            with contextlib.suppress(BaseException):
                await served
            sys.modules.update(modules)
    assert took < 5, f"{took:.1f} s after the migration"
    for r in caplog.records:
        # Meant: discord.py logs each failed connect at ERROR.
        meant = ("A newer bot migrated", "Attempting a reconnect")
        setattr(r, "expected", any(m in r.getMessage() for m in meant))  # noqa: B010
