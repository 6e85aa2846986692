"""Start-up with a database that cannot be used: one sentence, exit status 2, at once, and
never a word to Discord (one another process holds: tests/test_fix174_start_waits_process.py)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, closing
from pathlib import Path

import pytest

from data.db import Database, DatabaseUnusable
from data.migrations import MIGRATIONS
from data.store import Store
from tests.loopback.harness import LAUNCHER, ROOT, URL_VAR, loopback_server
from tests.loopback.launch import BUSY_VAR
from tests.loopback.server import LoopbackDiscord

#: Time enough to start Python and wait out the busy timeout once, not to hang.
PROMPTLY = 30.0
#: The bot's busy timeout here (5 s in use): a locked database is still waited for, then
#: refused; the wait is the same with any length.
BUSY = 1.0


async def run_bot(server: LoopbackDiscord, db: Path, workdir: Path,
                  **more: str) -> tuple[int, str]:
    """``bot.py``'s ``main()`` pointed at ``server``, run to its end: status and stderr."""
    env = {**os.environ, "DISCORD_TOKEN": "loopback-token", "UMTALI_DB_PATH": str(db),
           URL_VAR: f"http://127.0.0.1:{server.port}", "UMTALI_LOG_LEVEL": "INFO",
           "PYTHONPATH": str(ROOT), BUSY_VAR: str(BUSY), **more}
    env.pop("UMTALI_DEV_GUILD_ID", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(LAUNCHER), cwd=workdir, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), PROMPTLY)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"the bot was still running after {PROMPTLY:g} s") from None
    assert proc.returncode is not None
    return proc.returncode, err.decode(errors="replace")


async def _migrated(path: Path) -> bytes:
    store = await Store.open(path)
    async with store.db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', ?)", ("x" * 20_000,))
    await store.close()
    return path.read_bytes()


# Each makes a database the bot must refuse, and gives its bytes (read first: closing any
# file of the database drops the POSIX locks this process holds on it).

@asynccontextmanager
async def _random(path: Path) -> AsyncIterator[bytes]:
    path.write_bytes(os.urandom(16_384))
    yield path.read_bytes()


@asynccontextmanager
async def _truncated(path: Path) -> AsyncIterator[bytes]:
    path.write_bytes((await _migrated(path))[:5000])
    yield path.read_bytes()


@asynccontextmanager
async def _newer(path: Path) -> AsyncIterator[bytes]:
    await _migrated(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    yield path.read_bytes()


@asynccontextmanager
async def _locked(path: Path, *pragmas: str) -> AsyncIterator[bytes]:
    """Another process's exclusive lock, held while the bot starts."""
    before = await _migrated(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        for pragma in pragmas:
            other.execute(pragma)
        other.execute("BEGIN EXCLUSIVE")
        other.execute("UPDATE meta SET value = 'y'")
        yield before
        other.execute("ROLLBACK")


BAD: dict[str, tuple[Callable[[Path], AbstractAsyncContextManager[bytes]], str]] = {
    "random bytes": (_random, "is damaged or not an SQLite database"),
    "truncated": (_truncated, "is damaged or not an SQLite database"),
    "newer schema": (_newer, f"has schema version {len(MIGRATIONS) + 1}, newer than"),
}
# A file another process holds is waited for a while, then refused for now (exit status 1):
# tests/test_fix174_start_waits_process.py.
HELD: dict[str, Callable[[Path], AbstractAsyncContextManager[bytes]]] = {
    "write lock": lambda p: _locked(p),
    "exclusive mode": lambda p: _locked(p, "PRAGMA locking_mode = EXCLUSIVE"),
}


@pytest.mark.parametrize("case", list(BAD))
async def test_a_database_that_cannot_be_used_stops_the_bot_with_one_sentence(
        case: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    make, says = BAD[case]
    db = tmp_path / "umtali.sqlite3"
    async with make(db) as before:
        async with loopback_server(monkeypatch) as server:
            started = time.monotonic()
            status, err = await run_bot(server, db, tmp_path)
            took = time.monotonic() - started
            # Checked before Discord: never connected, nothing sent.
            assert (server.identifies, server.calls) == (0, [])
        # Left as it was found, for whoever looks into it.
        assert db.read_bytes() == before
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: the database {db} {says}"), err
    assert lines[0].endswith("."), err
    assert took < PROMPTLY


async def test_a_refused_database_leaves_no_connection_thread(tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    db.write_bytes(os.urandom(16_384))
    threads = set(threading.enumerate())
    with pytest.raises(DatabaseUnusable):
        await Database.open(db)
    # A connection's worker thread is not a daemon: one left running keeps a process alive.
    for thread in set(threading.enumerate()) - threads:
        thread.join(5)
        assert not thread.is_alive(), thread
