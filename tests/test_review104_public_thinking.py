"""A command whose "thinking" message the channel sees (``/umtali practice``, a challenge to the
bot itself: the offer replaces it) fails after it was shown: the error reaches the member
alone. Before the offer, the public "thinking" message goes, as a refusal's does (review104:
the error was written into it, for the channel to read); once it became the offer, the offer
stays as it is (review107: the error deleted it). On the loopback Discord, a real SQLite file
whose write lock another connection holds past two seconds, and a trigger failing the save,
in real time."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import until, write
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Member
from tests.test_in_time import LIMIT, THINKING, settled

#: Seconds the database is held: past the "thinking" shown at two.
HELD = 2.5
#: The saves failed: the practice's challenge itself, or the offer's message id once posted.
BEFORE, AFTER = "INSERT ON challenges", "UPDATE OF message_id ON challenges"


async def failing(db: Path, what: str) -> None:
    await write(db, f"CREATE TRIGGER fails BEFORE {what} "
                "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")


def as_meant(caplog: pytest.LogCaptureFixture) -> None:
    """The save's failure is logged as an error, as any unforeseen one is: here, meant."""
    for record in caplog.records:
        if record.levelno >= logging.ERROR and "interaction" in record.getMessage():
            record.expected = True


def options(server: Any, command: str) -> dict[str, Any]:
    return {"level": "easy"} if command == "practice" else {"opponent": Member(server.app_id)}


@pytest.mark.parametrize("command", ["practice", "challenge"])
@pytest.mark.parametrize("failed", [BEFORE, AFTER], ids=["before the offer", "once posted"])
async def test_an_error_after_a_public_thinking_is_said_to_the_member_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        command: str, failed: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        await settled(bot)
        await failing(db, failed)
        async with write_locked(db, HELD):
            asked = await server.slash(ada, server.channel_id, f"umtali {command}",
                                       options(server, command))
            assert asked.answered_at - asked.sent_at < LIMIT
            assert asked.callback_type == THINKING and not asked.ephemeral
        await until(lambda: asked.followups, "the error's answer")
        assert all(int(m.get("flags") or 0) & 64 for m in asked.followups), \
            "the error was said in public"
        await settled(bot)
        as_meant(caplog)
        shown = server.channel_messages(server.channel_id)
        said = asked.followups[0]["content"][:30]
        assert said not in json.dumps(shown, ensure_ascii=False), "the channel reads the error"
        assert asked.response is not None
        left = [m for m in shown if m["id"] == asked.response["id"]]
        if failed == BEFORE:
            assert not left, "the public thinking message was left in the channel"
        else:
            assert left, "the offer was deleted"
            assert "Cut the deck" in json.dumps(left, ensure_ascii=False)
