"""The computer's move in a practice saved while the database is busy past its busy timeout
(another writer holding the SQLite file): not saved, and the clock's next check gives the
computer another go. The database failing for now is no bug: a warning, not an ERROR with a
traceback (the conftest fails a test that logs one). On the loopback Discord, in real time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import cut_deck, play_move, read_match, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_in_time import settled

#: The bot's busy timeout here (5 s in use), the computer's pause, and the write lock held
#: from the member's last move of a turn: past the pause, and the timeout of the delivery's
#: writes queued before the computer's save and its own.
BUSY, PAUSE, HELD = 1.0, 1.0, 6.0


async def test_the_computers_move_on_a_busy_database_is_no_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", BUSY)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        await settled(bot)
        answer = await server.slash(ada, server.channel_id, "umtali practice",
                                    {"level": "easy"})
        await until(lambda: "Umtali practice" in json.dumps(answer.response), "the announcement")
        assert answer.response is not None
        await cut_deck(server, ada, answer.response)
        saved = await until(lambda: (m := read_match(db)) and m.table_message_id and m,
                            "the table")
        await settled(bot)
        assert bot.matches is not None
        bot.matches.computers.pause = PAUSE
        mine = saved.player_ids.index(ada)
        # ada plays to the end of her turn; the computer's move waits its pause.
        while True:
            now = read_match(db, saved.id)
            assert now is not None
            if now.session.to_act == mine:
                await play_move(server, db, saved.id)
                continue
            if now.version > saved.version:
                break
            await asyncio.sleep(0.05)  # (the computer's first turn, before ada's)
        async with write_locked(db, HELD):
            await asyncio.sleep(HELD - 0.3)
            latest = read_match(db, saved.id)
            assert latest is not None and latest.version == now.version, \
                "the computer's move was saved through the lock"
        await settled(bot)
        assert not server.errors
