"""A PostgreSQL server that stops answering on a connection the bot holds (a failover leaves it
half-open; here its server process is paused): the statement fails after
``COMMAND_TIMEOUT``, the connection is dropped, and the next write goes through on a new one.
Without a limit, the write, and even its cancelling, waited for as long as the server was
silent (on a half-open connection, until TCP gives up: many minutes), holding the process's
write lock, so every move of every match in the process with it."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import asyncpg
import pytest

from data import pg_db
from data.store import Store

ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
#: However the test ends, the paused server processes go on after this many seconds.
SAFETY = 20.0


@contextmanager
def paused(pids: list[int]) -> Iterator[None]:
    """The server processes ``pids`` (the test's own throwaway server's) answer nothing."""
    def resume() -> None:
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    timer = threading.Timer(SAFETY, resume)  # even if the event loop itself were stuck
    timer.start()
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        resume()
        timer.cancel()


@ON_POSTGRESQL
async def test_a_server_that_stops_answering_fails_a_write_and_the_next_goes_through(
        store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_db, "COMMAND_TIMEOUT", 1.0, raising=False)
    store = await Store.open(store_target)
    admin = await asyncpg.connect(store_target)
    try:
        await store.set_meta("before", "1")
        pids = [int(r[0]) for r in await admin.fetch(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'umtali' "
            "AND datname = current_database()")]
        assert pids
        with paused(pids):
            started = time.monotonic()
            with pytest.raises((TimeoutError, asyncpg.InterfaceError)):
                await asyncio.wait_for(store.set_meta("lost", "1"), SAFETY / 2)
            assert time.monotonic() - started < SAFETY / 2
            # The next write is made on another connection, the paused one still paused.
            await asyncio.wait_for(store.set_meta("after", "1"), SAFETY / 2)
        assert await store.get_meta("after") == "1"
        assert await store.get_meta("lost") is None
    finally:
        await admin.close()
        await store.close()
