"""``/umtali table`` answered within Discord's 3 seconds while the database is busy: the
lookups behind it wait on another connection's write lock (queued behind a move's save on the
store's one thread). The command is acknowledged in time, then answered in full. On the loopback
Discord, in real time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import custom_ids, read_match, until
from tests.test_in_time import HELD, LIMIT, THINKING, a_match, settled
from umtali.players import GreedyPlayer


async def test_a_table_asked_while_the_database_is_busy_is_deferred_then_posted(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)
        before = len(server.channel_messages(saved.channel_id))
        async with write_locked(db, HELD):
            # A move's save waits for the lock; the table's lookups queue behind it.
            moving = asyncio.ensure_future(server.slash(
                saved.player_ids[seat], saved.channel_id, "umtali play", {"move": str(move)}))
            await asyncio.sleep(0.1)
            answer = await server.slash(saved.player_ids[1 - seat], saved.channel_id,
                                        "umtali table")
            assert answer.callback_type == THINKING and answer.ephemeral, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT
            await moving
        hand = f"umtali:m:{saved.id}:hand"

        def posted() -> dict[str, object] | None:
            return next((msg for msg in server.channel_messages(saved.channel_id)[before:]
                         if hand in custom_ids(msg) and not int(msg.get("flags") or 0) & 64),
                        None)
        table = await until(posted, "the table posted in the channel")
        # It is the live table from now on; the private "thinking" is taken away.
        await until(lambda: (read_match(db, saved.id) or saved).table_message_id
                    == int(table["id"]) or None, "the table moved")
        await until(lambda: any(c.method == "DELETE" and c.path.endswith("/@original")
                                and c.status == 204 for c in server.calls) or None,
                    "the thinking taken away")


async def test_a_snapshot_asked_while_the_database_is_busy_is_deferred_then_shown(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        onlooker = server.add_member("cy")
        await settled(bot)
        async with write_locked(db, HELD):
            moving = asyncio.ensure_future(server.slash(
                saved.player_ids[seat], saved.channel_id, "umtali play", {"move": str(move)}))
            await asyncio.sleep(0.1)
            answer = await server.slash(onlooker, saved.channel_id, "umtali table")
            assert answer.callback_type == THINKING and answer.ephemeral, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT
            await moving
        await until(lambda: "snapshot" in json.dumps(answer.response or {}) or None,
                    "the snapshot in the deferred answer")
        assert answer.ephemeral
