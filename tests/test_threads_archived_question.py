"""The time-up question in an archived thread: by correspondence the question may wait a day
with no message after it, and Discord archives the thread; the absent player's move then
withdraws it, and its edit (refused in an archived thread: 400, 50083) brings the thread back
as the table's does (``cogs.umtali.archived``). Loopback."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord.http
import pytest

from tests.loopback.driver import query, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server, retries_at_once
from tests.test_threads_archived import _unsent, dm_move

ASKED = "time for this turn is up"


def _question(server: Any, thread: int, waiting: int) -> dict[str, Any] | None:
    return next((m for m in server.channel_messages(thread)
                 if f"<@{waiting}>" in m["content"] and ASKED in m["content"]), None)


@pytest.mark.parametrize("table", ["edited", "failing for now"])
async def test_a_question_withdrawn_in_an_archived_thread_says_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, table: str) -> None:
    """The table's edit, before the question's in the same delivery, brings the thread back;
    failing for now (a 5xx), it does not, and the question's edit was refused (a WARNING, the
    question left with its buttons until the table's was tried again): it brings the thread
    back itself now."""
    db = tmp_path / "umtali.sqlite3"
    retries_at_once(monkeypatch, discord.http)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, time_control="correspondence")
        thread = saved.channel_id
        await until(lambda: _unsent(db, saved.id) == "[]", "the opening announced")
        assert bot.matches is not None
        deadline = query(db, "SELECT deadline FROM matches WHERE id = ?", saved.id)[0][
            "deadline"]
        await bot.matches.check_timers(deadline + 60)
        waiting = saved.player_ids[1 - saved.session.to_act]
        asked = await until(lambda: _question(server, thread, waiting), "the question")
        await bot.matches.flush()
        # A day with no message after the question: Discord archives the thread.
        await server.archive_thread(thread)
        if table == "failing for now":
            server.fail("PATCH", rf"^/channels/{thread}/messages/{saved.table_message_id}$",
                        status=503, times=5)
        # The absent player is back: their first move of the turn withdraws the question.
        await dm_move(server, db, saved.id)
        await bot.matches.flush()
        moved = read_match(db, saved.id)
        assert moved is not None and moved.session.to_act == saved.session.to_act
        shown = server.messages[int(asked["id"])]
        assert "is back at the table" in shown["content"], shown["content"]
        assert not shown.get("components")
        assert not query(db, "SELECT question FROM matches WHERE id = ?",
                         saved.id)[0]["question"]
        assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING
                    and "listener" in r.getMessage()]
        assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
