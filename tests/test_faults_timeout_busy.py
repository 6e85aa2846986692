"""An answer to a time-up question while the database is busy (``cogs/umtali/time_up_answer.py``):
another connection holds SQLite's write lock longer than Discord waits, so the click is
deferred within its 3 seconds, and the question shows the answer once it is saved. On the
loopback Discord, in real time (SimCord's timers are virtual)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.in_time import DEFER_AFTER
from tests.db_lock import write_locked
from tests.loopback.driver import custom_ids, query, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server

#: Discord's limit for the first answer, less a margin for the way there.
LIMIT = 2.8
#: Interaction callback type: an update of the clicked message promised.
DEFERRED_UPDATE = 6


def _deadline(db: Path, match_id: int) -> float | None:
    found: float | None = query(db, "SELECT deadline FROM matches WHERE id = ?",
                                match_id)[0]["deadline"]
    return found


async def test_an_answer_waiting_on_a_busy_database_is_deferred_then_shown(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, time_control="correspondence")
        svc = bot.matches
        assert svc is not None
        live = svc.matches[saved.id]
        assert live.deadline is not None
        waiting = live.player_ids[1 - live.session.to_act]
        await svc.check_timers(now=live.deadline + LATE + 1)
        await svc.flush()
        question = await until(lambda: next(
            (m for m in server.messages.values() if "time for this turn is up"
             in str(m.get("content")) and custom_ids(m)), None), "the question")
        wait = next(c for c in custom_ids(question) if c.endswith(":wait"))
        async with write_locked(db, 3.5):
            answer = await server.click(waiting, question, wait)
            assert answer.callback_type == DEFERRED_UPDATE
            assert DEFER_AFTER - 0.1 < answer.answered_at - answer.sent_at < LIMIT
            assert _deadline(db, saved.id) is None  # acknowledged while the answer waited
        await until(lambda: _deadline(db, saved.id) is not None, "the answer saved")
        await until(lambda: "keeps waiting" in str(
            server.messages[int(question["id"])].get("content")), "the question edited")
        assert not custom_ids(server.messages[int(question["id"])])
        await svc.flush()
        assert not server.errors
