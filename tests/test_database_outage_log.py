"""The database failing for a while (another writer holding the SQLite file's lock, a backup,
PostgreSQL restarting): the timers check every second, and each check's lease renewal fails
the same way. The admin reads one WARNING when it begins and one line when it is over, not a
WARNING a second (PostgreSQL out of reach logged "the leases could not be renewed" 30 times in
30 s; SQLite locked, once at every busy timeout)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.loopback.driver import start_session, until
from tests.loopback.harness import BotProcess, loopback_server
from tests.loopback.launch import BUSY_VAR, RENEW_VAR, TIMERS_VAR
from tests.loopback.soak_database import _let_go, _write_lock
from tests.pg_server import PgServer
from tests.test_review24_database_down import out_of_reach

#: A line of the bot's log: its level and what it says.
LINE = re.compile(r"^\S+ \S+ (?P<level>[A-Z]+) (?P<name>\S+): (?P<text>.*)$")
#: The bot's busy timeout, timer period and lease renewal period here (5, 1 and 5 s in use):
#: a few seconds of the database failing fail the renewals and the checks again and again,
#: as twenty did with the bot's own.
SHORTER = {BUSY_VAR: "1", TIMERS_VAR: "0.2", RENEW_VAR: "1"}
#: Seconds the log is read on for, once the leases are said renewed again: a second WARNING
#: or line of their end would come by then (two renewals).
AFTER = 2.0


def _said(text: str) -> None:
    """One WARNING of the leases failing, naming the database; one INFO of their end."""
    lines = [m for m in map(LINE.match, text.splitlines()) if m is not None]
    warned = [m["text"] for m in lines if m["level"] == "WARNING"
              and m["name"].startswith(("cogs.", "umtali.", "data."))]
    leases = [t for t in warned if "leases could not be renewed" in t]
    assert len(leases) == 1, warned
    assert "database" in leases[0], leases[0]
    again = [m["text"] for m in lines if m["level"] == "INFO" and "leases" in m["text"]]
    assert len(again) == 1 and "again" in again[0], again
    # Said once for several failures (the shorter outages here still bring them).
    failures = re.search(r"(\d+) failure", again[0])
    assert failures is not None and int(failures[1]) >= 2, again
    assert sum("timer check failed" in t for t in warned) <= 1, warned


def _since(log: Path, start: int) -> str:
    with log.open("rb") as read:
        read.seek(start)
        return read.read().decode(errors="replace")


async def _over(log: Path, start: int) -> str:
    """The bot's log from ``start``, once the leases are said renewed again and ``AFTER``
    seconds more."""
    await until(lambda: "the leases are renewed again" in _since(log, start),
                "the leases renewed again", timeout=30)
    await asyncio.sleep(AFTER)
    return _since(log, start)


async def test_the_database_locked_a_while_is_said_once_and_its_end_too(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        bot = BotProcess(server, db, tmp_path, env=SHORTER)
        try:
            await bot.start()
            await start_session(server, db, alice, bob)
            await asyncio.sleep(1.5)
            start = bot.log.stat().st_size
            other = await asyncio.to_thread(_write_lock, db)
            try:
                await asyncio.sleep(6)  # six busy timeouts, thirty checks
            finally:
                await asyncio.to_thread(_let_go, other)
            text = await _over(bot.log, start)
        finally:
            await bot.stop()
    _said(text)


async def _out_of_reach(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store_target: str,
                        postgres_server: PgServer, seconds: float) -> str:
    """The bot's log while PostgreSQL is out of reach ``seconds``, and a while after."""
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        bot = BotProcess(server, tmp_path / "unused.sqlite3", tmp_path,
                         env={"UMTALI_DATABASE_URL": store_target, **SHORTER})
        await bot.start()
        try:
            await start_session(server, store_target, alice, bob)
            await asyncio.sleep(1.5)
            start = bot.log.stat().st_size
            async with out_of_reach(postgres_server):
                await asyncio.sleep(seconds)
            return await _over(bot.log, start)
        finally:
            await bot.stop()


ON_POSTGRES = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


@ON_POSTGRES
async def test_postgresql_out_of_reach_is_said_once_and_its_end_too(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store_target: str,
        postgres_server: PgServer) -> None:
    """Each check fails at once (no server to wait for): a WARNING a second, before."""
    _said(await _out_of_reach(monkeypatch, tmp_path, store_target, postgres_server, 4))


@ON_POSTGRES
async def test_postgresql_out_of_reach_logs_no_traceback(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store_target: str,
        postgres_server: PgServer) -> None:
    """asyncpg's pool, its one connection lost, connects again and again (1, 2, 4... 60 s
    apart), and logged each failure as a WARNING with a traceback of some 30 lines (through
    asyncio's socket calls to the missing socket file): no bug to find there. Said once,
    in a line, as the bot's own lines say the database failing."""
    # Its tries: at once, then 1 and 3 s on (4 s out of reach), each a WARNING before.
    text = await _out_of_reach(monkeypatch, tmp_path, store_target, postgres_server, 4)
    assert "Traceback" not in text, text[text.index("Traceback") - 300:][:1500]
    lines = [m for m in map(LINE.match, text.splitlines()) if m is not None]
    pool = [m["text"] for m in lines if m["name"] == "asyncpg.pool"
            and m["level"] == "WARNING"]
    assert len(pool) == 1, pool
