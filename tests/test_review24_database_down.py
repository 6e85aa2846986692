"""PostgreSQL out of reach as a member acts (the server restarting, or stopped: its socket
gone, a TCP connection refused): the pool's new connection fails with the operating system's
error, not one of asyncpg's. That is the database failing for now (``failing_for_now``), as
its connection cut is: the member is told to look again, and a warning logged, not an
unhandled error with an apology (the conftest fails a test that logs one)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from cogs.umtali.errors import APOLOGY, BUSY
from data.failing import failing_for_now
from tests.discord_helpers import World, start_match, thread_of
from tests.pg_server import PgServer
from tests.processes.test_unheard_moves import words

# The bot on the test's PostgreSQL database (the conftest's is on an SQLite file).
from tests.test_discord_postgres import make_bot as make_bot

ON_POSTGRES = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])

#: The server's socket in its directory (``tests.pg_server``: reached by it alone).
SOCKET = ".s.PGSQL.5432"




@asynccontextmanager
async def out_of_reach(postgres_server: PgServer) -> AsyncIterator[None]:
    """The bot's connections cut, and no new one to be had: as the server restarting. (Cut
    once the socket is gone, from a connection had before: none made again between.)"""
    socket = Path(postgres_server.base) / SOCKET
    hidden = socket.with_name("hidden")
    admin = await asyncpg.connect(postgres_server.url("postgres"))
    os.rename(socket, hidden)
    try:
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE application_name = 'umtali'")
        await asyncio.sleep(0.2)  # (the pool hears its connections closed)
        yield
    finally:
        os.rename(hidden, socket)
        await admin.close()


@ON_POSTGRES
async def test_the_table_asked_for_with_the_server_out_of_reach_says_look_again(
        world: World, postgres_server: PgServer) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    async with out_of_reach(postgres_server):
        result = await world.bob.slash(thread, "umtali table")
        await world.env.settle()  # (answered once the pool gives up)
    assert [e.__class__.__name__ for e in world.env.errors] == ["CommandInvokeError"]
    said = words(result)
    assert not any(APOLOGY[:20] in w for w in said), said
    assert any(BUSY[:30] in w for w in said), said


async def test_a_refused_connection_is_the_database_failing_for_now() -> None:
    """Nothing listening where the server was (it restarts): refused by the system."""
    try:
        await asyncpg.connect("postgresql://umtali@127.0.0.1:1/umtali", timeout=5)
    except Exception as e:
        refused = e
    else:
        pytest.fail("connected to nothing")
    assert failing_for_now(refused), repr(refused)


def test_a_file_of_ours_missing_is_no_database_failing() -> None:
    """The system's error raised anywhere but in the driver is a bug to find (logged so)."""
    try:
        Path("/nonexistent/umtali.png").read_bytes()
    except OSError as e:
        missing = e
    assert not failing_for_now(missing)
    assert not failing_for_now(TimeoutError("the computer's pool hung"))
