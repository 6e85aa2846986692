"""The bot started while another process holds its SQLite file (that process's upgrade
migrating, a rolling restart): it waits, saying so once, then logs in once the file is free,
having migrated nothing the other did. Held past the wait, it stops with one sentence and exit
status 1, which a service restarts (before: exit status 2 after the 5 s busy timeout, which
systemd leaves down, for something that passes by itself). Ctrl-C meanwhile stops it quietly."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import asyncpg
import pytest

from data.pg_db import MIGRATION_LOCK
from tests.loopback.harness import BotProcess, loopback_server
from tests.loopback.launch import BUSY_VAR, START_WAIT_VAR
from tests.test_fix174_start_waits import ON_POSTGRESQL, WAITING, older_file, upgrading
from tests.test_startup import HELD, PROMPTLY, run_bot

#: The start's wait here (300 s in use).
WAIT = 1.0


async def connected_or_ended(server: object, bot: BotProcess, timeout: float) -> int | None:
    """None once the bot identified with the loopback, or its exit status if it ended."""
    assert bot.proc is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if getattr(server, "identifies", 0) >= 1:
            return None
        if (code := bot.proc.poll()) is not None:
            return code
        await asyncio.sleep(0.05)
    raise AssertionError(f"neither connected nor ended after {timeout:g} s")


async def said_waiting(bot: BotProcess) -> None:
    """Until the bot says it waits for the database (failing if it ends first)."""
    assert bot.proc is not None
    deadline = time.monotonic() + PROMPTLY
    while WAITING not in bot.log.read_text():
        assert bot.proc.poll() is None, bot.log.read_text()
        assert time.monotonic() < deadline, bot.log.read_text()
        await asyncio.sleep(0.05)


async def test_the_bot_waits_out_another_process_upgrade_then_logs_in(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    await older_file(db)
    async with loopback_server(monkeypatch) as server:
        bot = BotProcess(server, db, tmp_path, env={BUSY_VAR: "0.3", START_WAIT_VAR: "20"})
        try:
            async with upgrading(db, None):
                await bot.start(wait=False)
                await said_waiting(bot)
                await asyncio.sleep(1.0)  # a few tries more
            ended = await connected_or_ended(server, bot, PROMPTLY)
            assert ended is None, f"exit status {ended}: {bot.log.read_text()}"
            await server.wait_connected(1, timeout=PROMPTLY)
        finally:
            status = await bot.stop()
    log = bot.log.read_text()
    assert status == 0, log
    assert log.count(WAITING) == 1, log
    assert "WARNING" in next(line for line in log.splitlines() if WAITING in line)
    assert "database migrated" not in log, "the other process's migration run here too"
    assert "is free again: starting" in log, log


@pytest.mark.parametrize("case", list(HELD))
async def test_held_past_the_wait_the_bot_stops_for_now(
        case: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with HELD[case](db) as before:
        async with loopback_server(monkeypatch) as server:
            status, err = await run_bot(server, db, tmp_path,
                                        **{BUSY_VAR: "0.3", START_WAIT_VAR: str(WAIT)})
            assert (server.identifies, server.calls) == (0, [])
        assert db.read_bytes() == before
    assert status == 1, err
    lines = err.strip().splitlines()
    assert sum(WAITING in line for line in lines) == 1, err
    assert [line for line in lines if line.startswith("error:")] == [lines[-1]], err
    assert lines[-1] == (f"error: the database {db} was still held by another process after "
                         f"{WAIT:g} second of waiting (an upgrade under way, or a copy of the bot "
                         f"stuck?): start the bot again later (a service restarts it by "
                         f"itself)."), err


async def test_ctrl_c_while_waiting_stops_the_bot_quietly(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with HELD["write lock"](db), loopback_server(monkeypatch) as server:
        bot = BotProcess(server, db, tmp_path, env={BUSY_VAR: "0.3", START_WAIT_VAR: "60"})
        await bot.start(wait=False)
        assert bot.proc is not None
        await said_waiting(bot)
        os.kill(bot.proc.pid, signal.SIGINT)
        status = await asyncio.to_thread(bot.proc.wait, 10)
        assert server.identifies == 0
    log = bot.log.read_text()
    assert status == 0, log
    assert "Traceback" not in log and "error" not in log.lower(), log


@ON_POSTGRESQL
async def test_on_postgresql_a_migration_held_past_the_wait_stops_the_bot_for_now(
        empty_target: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    other = await asyncpg.connect(empty_target)
    try:
        # Another process migrating: it holds the migration lock all along.
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        async with loopback_server(monkeypatch) as server:
            status, err = await run_bot(server, tmp_path / "unused.sqlite3", tmp_path,
                                        UMTALI_DATABASE_URL=empty_target,
                                        **{START_WAIT_VAR: str(WAIT)})
            assert (server.identifies, server.calls) == (0, [])
    finally:
        await other.close()
    assert status == 1, err
    lines = err.strip().splitlines()
    assert sum(WAITING in line for line in lines) == 1, err
    assert [line for line in lines if line.startswith("error:")] == [lines[-1]], err
    assert "was still held by another process after 1 second of waiting" in lines[-1], err
