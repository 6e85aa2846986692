"""On PostgreSQL, for real: the connection cut as the server's answer to a move's COMMIT comes
back (``tests.pg_cut``), the move committed; the bot reads the match back on a new connection
and carries on as saved (``cogs.umtali.unheard``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from tests.discord_helpers import World
from tests.pg_cut import CommitCut
from tests.pg_server import PgServer
from tests.processes.helpers import first_line, row, said, settle
from tests.processes.test_unheard_moves import (
    at_turn_end,
    discard_on_table,
    read_at_next_check,
    shows_turn,
    words,
)


@pytest.fixture(params=[pytest.param("postgresql", marks=pytest.mark.postgresql)])
def backend(request: pytest.FixtureRequest) -> str:
    """PostgreSQL alone: its connection is what is cut."""
    return str(request.param)


@pytest.fixture
async def commit_cut(request: pytest.FixtureRequest) -> AsyncIterator[CommitCut]:
    server: PgServer = request.getfixturevalue("postgres_server")
    proxy = CommitCut(str(server.base))
    await proxy.start()
    yield proxy
    await proxy.close()


@pytest.fixture
def store_target(store_target: str, commit_cut: CommitCut) -> str:
    """The test's database, reached through the proxy."""
    return commit_cut.url(store_target)


async def test_a_move_whose_commit_answer_is_cut_is_carried_on_as_saved(
        world: World, commit_cut: CommitCut) -> None:
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    commit_cut.armed = 1
    result = await discard_on_table(world, live)
    await settle(world, main)
    assert commit_cut.cut == 1
    assert not any(w.startswith("Sorry") for w in words(result)), words(result)
    saved = await row(world, live.id)
    assert saved["version"] == live.version == version + 1
    assert json.loads(saved["unsent"]) == []
    assert live.last_turn and len(said(world, live, first_line(live.last_turn))) == 1
    assert shows_turn(world, live, 1 - seat, version + 1)


async def test_a_move_whose_commit_reaches_the_server_late_is_read_at_the_next_check(
        world: World, commit_cut: CommitCut, caplog: pytest.LogCaptureFixture) -> None:
    """The connection cut as the bot sends the move's COMMIT, which reaches the server a moment
    later (a timeout's COMMIT, still being written when the bot gave up, does the same): the
    read-back finds the move not saved, and then it is. The clock's next check reads it again,
    so the next turn is not left waiting on the old one's deadline."""
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    commit_cut.late = 1
    await discard_on_table(world, live)
    await settle(world, main)
    for record in caplog.records:
        record.expected = True  # found not saved, the save's error is answered as before
    assert commit_cut.cut == 1 and live.version == version
    commit_cut.sent.set()  # the COMMIT reaches the server now, after the read-back
    for _ in range(100):
        saved = await row(world, live.id)
        if saved["version"] == version + 1:
            break
        await asyncio.sleep(0.05)
    await read_at_next_check(world, main, live, seat, version)
