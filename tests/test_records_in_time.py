"""A member's history and a session's replay file answered within Discord's 3 seconds while
the database is busy (another process's long write holding SQLite's lock, a move's save
waiting for it, and every read of the bot's connection queued behind that save): acknowledged
in time, then answered in full. On the loopback Discord, in real time."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import (
    custom_ids,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Interaction
from tests.test_in_time import DEFERRED_UPDATE, HELD, LIMIT, THINKING, settled
from umtali.players import GreedyPlayer


def _said(asked: Interaction) -> str:
    """What the answer finally says: its message as edited, or its follow-ups."""
    return "".join(str(m) for m in [*asked.messages, *asked.followups])


async def test_history_and_a_replay_asked_behind_a_waiting_save_are_answered_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        # A session ends (ada resigns): its final card carries the Session files button.
        done = await start_session(server, db, ada, ben)
        ask = await server.slash(ada, done.channel_id, "umtali resign")
        assert ask.response is not None
        await server.click(ada, ask.response,
                           next(c for c in custom_ids(ask.response) if c.endswith(":resign")))
        ended = await until(lambda: (m := read_match(db, done.id)) and m.status == "finished"
                            and m, "the session's end")
        await until(lambda: table_settled(server, ended), "the final card")
        assert done.table_message_id is not None
        card = server.messages[done.table_message_id]
        replay = next(c for c in custom_ids(card) if c.startswith("umtali:rf:"))
        # Another session in play, whose next move is saved while the lock is held.
        saved = await start_session(server, db, cy, ada)
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)
        async with write_locked(db, HELD):
            moving = asyncio.ensure_future(server.slash(
                saved.player_ids[seat], saved.channel_id, "umtali play", {"move": str(move)}))
            # The save is waiting for the write lock (and so holds the bot's connection):
            # seen held twice, a little apart, not a read's moment.
            assert bot.matches is not None
            store = bot.matches.store.db
            while True:
                await until(store._lock.locked, "the move's save waiting")
                await asyncio.sleep(0.05)
                if store._lock.locked():
                    break
            history, file = await asyncio.gather(
                server.slash(ben, server.channel_id, "umtali history"),
                server.click(ben, card, replay))
            assert history.answered_at - history.sent_at < LIMIT, history.text()
            assert history.callback_type == THINKING and history.ephemeral
            assert file.answered_at - file.sent_at < LIMIT, file.text()
            assert file.callback_type in (THINKING, DEFERRED_UPDATE) and file.ephemeral
            await moving
        # Then each is answered in full, privately.
        await until(lambda: "Umtali history" in _said(history), "the history")
        await until(lambda: "-replay.txt" in _said(file), "the replay file")
        assert not server.errors
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM session_results").fetchone()[0] == 1
