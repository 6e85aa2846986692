"""The database busy past its busy timeout as a match's table is saved (another writer holding
the SQLite file, for real): the match is cancelled, as the first posts failing cancel it. The
database failing for now is no bug: its warning carries no traceback, as Discord's failing
does not (``failing_for_now``)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from tests.discord_helpers import World, flush
from tests.test_faults_opening import _accept, _apologies, _cancelled_cleanly


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's busy timeout (5 s in use) within SimCord's wait for the bot to settle."""
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", 0.5)


async def test_the_table_saved_on_a_busy_database_cancels_the_match_with_no_traceback(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    svc = world.bot.matches
    assert svc is not None
    save = svc.store.set_table_message

    async def busy(match_id: int, message_id: int) -> None:
        # Another process holds the file's write lock past the bot's busy timeout.
        other = sqlite3.connect(db_path, isolation_level=None, timeout=10)
        other.execute("BEGIN IMMEDIATE")
        try:
            await save(match_id, message_id)
        finally:
            other.execute("ROLLBACK")
            other.close()

    monkeypatch.setattr(svc.store, "set_table_message", busy)
    _, answer = await _accept(world, turn_timer=60)
    await flush(world)
    assert answer.acknowledged and not _apologies(answer)
    _cancelled_cleanly(db_path)
    failed = [r for r in caplog.records if "first posts failed" in r.getMessage()]
    assert failed and "database is locked" in failed[0].getMessage(), failed
    assert not any(r.exc_info for r in failed), "a traceback for no bug"
