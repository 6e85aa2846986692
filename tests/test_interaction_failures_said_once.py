"""The database failing a while (here the SQLite file held by another writer past the busy
timeout) as members play: each is told to try again in a moment, and each of their tries
failed the same way, a WARNING each ("the database failed during an interaction"). One
lasting cause: the WARNING is said once a minute at most; the others are INFO lines."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from cogs.umtali.errors import BUSY
from cogs.umtali.in_time import DEFER_AFTER
from tests.loopback.driver import read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Interaction
from tests.loopback.soak_database import _let_go, _write_lock, said
from tests.test_in_time import settled
from umtali.players import GreedyPlayer

#: The bot's busy timeout here (5 s in use): each move waits it out once. Past ``DEFER_AFTER``,
#: as 5 s is, so the member is still told in the deferred answer's edit.
TIMEOUT = DEFER_AFTER + 0.5


async def _told_busy(answer: Interaction) -> None:
    """The member told the database did not answer in time (the deferred answer's edit)."""
    await until(lambda: BUSY[:30] in said(answer), "told to try again", timeout=30)


async def test_the_database_failing_for_every_move_warns_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", TIMEOUT)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        match = read_match(db, saved.id)
        assert match is not None
        seat = match.session.to_act
        move = GreedyPlayer().choose(match.session.view(seat))
        # What the start had to send, sent first: the moves alone wait for the lock, not
        # behind the delivery's retries too (three busy timeouts a move).
        await settled(bot)
        caplog.set_level(logging.INFO)
        caplog.clear()
        other = await asyncio.to_thread(_write_lock, db)
        try:
            for _ in range(3):
                told = await server.slash(match.player_ids[seat], saved.channel_id,
                                          "umtali play", {"move": str(move)}, timeout=30)
                assert told.ephemeral
                await _told_busy(told)
        finally:
            await asyncio.to_thread(_let_go, other)
    failed = [r for r in caplog.records if "the database failed during an interaction"
              in r.getMessage()]
    assert [r.levelname for r in failed] == ["WARNING", "INFO", "INFO"], \
        [(r.levelname, r.getMessage()) for r in failed]
