"""``/umtali practice`` while the database is busy (another connection holds SQLite's write lock
for longer than Discord waits): the command is acknowledged within Discord's 3 seconds, in the
channel's sight, and the announcement (with its Cut the deck button) replaces the "thinking"
message once it is saved; a refusal that comes only after that reaches the member alone. On
the loopback Discord, in real time (SimCord's timers are virtual)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import cut_deck, read_match, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_in_time import HELD, LIMIT, THINKING, settled


async def test_a_practice_started_while_the_database_is_busy_is_answered_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await server.slash(ada, server.channel_id, "umtali practice",
                                        {"level": "easy"})
            assert answer.answered_at - answer.sent_at < LIMIT
            assert answer.callback_type == THINKING and not answer.ephemeral
        # The "thinking" message became the announcement; the table follows.
        await until(lambda: "Umtali practice" in json.dumps(answer.response), "the announcement")
        # ada cuts the deck: the session starts.
        assert answer.response is not None
        await cut_deck(server, ada, answer.response)
        saved = await until(lambda: (m := read_match(db)) and m.table_message_id and m,
                            "the table")
        assert saved.player_ids[0] == ada
        await settled(bot)
        assert not server.errors

        # Too soon for another session, found only once the database let go: said to ada
        # alone, and nothing of it left in the channel.
        assert bot.matches is not None
        live = bot.matches.matches[saved.id]
        await bot.matches.resign(live, 0)
        await settled(bot)
        shown = len(server.channel_messages(server.channel_id))
        async with write_locked(db, HELD):
            again = await server.slash(ada, server.channel_id, "umtali practice",
                                       {"level": "easy"})
            assert again.answered_at - again.sent_at < LIMIT
        await until(lambda: again.followups, "the refusal")
        assert "Slow down" in again.text() and all(
            int(m.get("flags") or 0) & 64 for m in again.followups)
        await settled(bot)
        assert len(server.channel_messages(server.channel_id)) == shown
        latest = read_match(db)
        assert latest is not None and latest.id == saved.id  # no session started
        assert not server.errors
