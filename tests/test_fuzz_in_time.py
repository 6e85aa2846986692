"""Settings answered within Discord's 3 seconds while the database is busy (another
connection's write lock): /umtali-admin settings and /umtali display wrote first and answered
after, 3.5 s later, so Discord failed them while the change was saved. On the loopback
Discord, in real time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import query, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_in_time import HELD, LIMIT, THINKING, settled


@pytest.mark.parametrize("command, options, said, saved", [
    ("umtali-admin settings", {"threads": False}, "- Threads: off",
     "SELECT threads AS v FROM guild_settings"),
    ("umtali display", {"pictures": False}, "text alone",
     "SELECT pictures AS v FROM member_prefs"),
])
async def test_a_setting_waiting_on_the_database_is_answered_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: str,
        options: dict[str, bool], said: str, saved: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        # The member's language is kept at their first interaction (a write of its own).
        await server.slash(ada, server.channel_id, "umtali rules")
        await settled(bot)
        await asyncio.sleep(0.2)
        async with write_locked(db, HELD):
            answer = await server.slash(ada, server.channel_id, command, options)
            assert answer.callback_type == THINKING and answer.ephemeral, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT
        # Once saved, the answer says what was chosen.
        await until(lambda: said in str((answer.response or {}).get("content")), "the answer")
        assert [r["v"] for r in query(db, saved)] == [0]
        assert not server.errors
