"""A command whose "thinking" message the channel sees (``/umtali practice``, a challenge to the
bot itself: the offer replaces it) fails after it was shown, its save answered by the database
busy past its timeout: the error reaches the member alone, and the public "thinking" message
goes, as a refusal's does (review104: the error was written into it, for the channel to read).
On the loopback Discord, in real time."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.errors import BUSY
from tests.loopback.driver import until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Member
from tests.test_in_time import LIMIT, THINKING, settled

#: Seconds the save takes before it fails: past the "thinking" shown at two.
SLOW = 2.5


@pytest.mark.parametrize("command", ["practice", "challenge"])
async def test_an_error_after_a_public_thinking_is_said_to_the_member_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        await settled(bot)
        options: dict[str, Any] = {"level": "easy"} if command == "practice" else {
            "opponent": Member(server.app_id)}
        assert bot.matches is not None

        async def busy(**_: Any) -> Any:
            await asyncio.sleep(SLOW)
            raise sqlite3.OperationalError("database is locked")

        monkeypatch.setattr(bot.matches.store, "create_challenge", busy)
        asked = await server.slash(ada, server.channel_id, f"umtali {command}", options)
        assert asked.answered_at - asked.sent_at < LIMIT
        assert asked.callback_type == THINKING and not asked.ephemeral
        await until(lambda: asked.followups, "the error's answer")
        said = BUSY[:30]
        assert said in asked.text()
        assert all(int(m.get("flags") or 0) & 64 for m in asked.followups), \
            "the error was said in public"
        await settled(bot)
        seen = json.dumps(server.channel_messages(server.channel_id), ensure_ascii=False)
        assert said not in seen, "the channel reads the error"
        assert asked.response is not None
        assert asked.response["id"] not in [m["id"] for m in
                                            server.channel_messages(server.channel_id)], \
            "the public thinking message was left in the channel"
