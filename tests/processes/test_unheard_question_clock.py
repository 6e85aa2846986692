"""A correspondence turn's time is up and its question cannot be posted for now (a 5xx): the
turn's clock runs on again (``time_out._ask``), and the next check asks. That restart's save
failing, on SQLite and PostgreSQL, leaves no clock that never fires again: its COMMIT gone
through unheard, it is read back and the next check asks; not gone through (the database busy),
the next check runs the clock out again and asks. Neither is an error of the bot's: no ERROR
line, and no WARNING blaming Discord for the database."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import asyncpg
import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from data.db import Database, Result, Tx
from tests.discord_helpers import World, start_match, thread_of
from tests.processes.helpers import main_of, row, settle
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.unheard import _Watched, lose_answer

#: The clock restarted after a failed ask (``MatchStore.set_deadline`` by the holder).
RESTART = "SET deadline = ?, warned = 0 WHERE id = ? AND version = ? AND status = 'active' " \
    "AND owner = ?"
ASKED = "time for this turn is up"


def _busy(db: Database) -> BaseException:
    """What the driver raises for a write that found the database busy (nothing written)."""
    if db.dialect == "postgresql":
        return asyncpg.LockNotAvailableError("canceling statement due to lock timeout")
    return sqlite3.OperationalError("database is locked")


class _Busy(_Watched):
    def __init__(self, inner: Tx, db: Database, fails: list[int]) -> None:
        super().__init__(inner, [])
        self.db, self.fails = db, fails

    async def execute(self, sql: str, params: Sequence[object] = ()) -> Result:
        if RESTART in sql and self.fails[0] > 0:
            self.fails[0] -= 1
            raise _busy(self.db)
        return await super().execute(sql, params)


def busy_at(monkeypatch: pytest.MonkeyPatch, db: Database, times: int) -> list[int]:
    """The clock's restart (``RESTART``) fails ``times`` times as the statement runs, the
    database busy: its transaction rolled back. How many failures are still to come."""
    real_begin, fails = db._begin, [times]

    @asynccontextmanager
    async def begin() -> AsyncIterator[Tx]:
        async with real_begin() as tx:
            yield _Busy(tx, db, fails)

    monkeypatch.setattr(db, "_begin", begin)
    return fails


def _asked(world: World, live: LiveMatch) -> int:
    return len([m for m in thread_of(world, live).history() if ASKED in m.content])


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("reads_fail", [0, 1], ids=["read back", "read back fails"])
async def test_a_clock_restarted_unheard_after_a_failed_ask_asks_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        reads_fail: int) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    deadline = live.deadline
    assert deadline is not None
    # The question fails in the channel for now, once; the clock's restart commits, unheard.
    world.env.inject_error("POST", f"/channels/{live.channel_id}/messages", status=503,
                           message="Unavailable", times=1)
    lost = lose_answer(monkeypatch, main.store.db, RESTART, reads_fail=reads_fail)
    await main.check_timers(now=deadline + LATE + 1)
    await settle(world, main)
    assert lost.answers == 1 and _asked(world, live) == 0
    assert lost.reads == reads_fail, "not read back"
    assert (await row(world, live.id))["deadline"] == deadline, "the restart was saved"
    for k in range(2, 5):
        await main.check_timers(now=deadline + LATE + k)
        await settle(world, main)
    assert _asked(world, live) == 1, "the waiting player was never asked"
    assert live.question and live.deadline is None and not live.over
    assert (await row(world, live.id))["question"] == live.question
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in caplog.records if "could not be sent" in r.getMessage()]


@pytest.mark.usefixtures("server_errors")
async def test_a_clock_not_run_on_for_now_after_a_failed_ask_asks_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    deadline = live.deadline
    assert deadline is not None
    world.env.inject_error("POST", f"/channels/{live.channel_id}/messages", status=503,
                           message="Unavailable", times=1)
    fails = busy_at(monkeypatch, main.store.db, 1)
    await main.check_timers(now=deadline + LATE + 1)
    await settle(world, main)
    assert fails == [0] and _asked(world, live) == 0
    # Stopped, as saved: memory is not ahead of the database.
    assert live.deadline is None and (await row(world, live.id))["deadline"] is None
    await main.check_timers(now=deadline + LATE + 2)
    await settle(world, main)
    assert _asked(world, live) == 1, "the waiting player was never asked"
    assert live.question and (await row(world, live.id))["question"] == live.question
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], \
        "the database busy for a moment is no warning"
