"""Boards and stats answered within Discord's 3 seconds while the database is busy (another
process's long write holding SQLite's lock): acknowledged in time, then answered in full. With
seasons on, ``/umtali leaderboard`` opens or ends the server's season, a write that waits for
that lock; every read of the bot's connection waits behind a save waiting for it. Before, the
board and the record came after the lock let go: Discord would have failed the command. On the
loopback Discord, in real time."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.calendar_words import season_name
from data.seasons import season_of
from tests.db_lock import write_locked
from tests.loopback.driver import custom_ids, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from tests.test_in_time import DEFERRED_UPDATE, HELD, LIMIT, THINKING, settled
from umtali.i18n import EN
from umtali.players import GreedyPlayer


def _public(server: LoopbackDiscord, channel_id: int, words: str) -> dict[str, Any] | None:
    """The newest public message of the channel whose embeds say ``words``."""
    return next((m for m in reversed(server.channel_messages(channel_id))
                 if not int(m.get("flags") or 0) & 64 and words in json.dumps(m["embeds"],
                                                                               ensure_ascii=False)),
                None)


async def test_a_season_board_asked_while_the_database_is_busy_is_answered_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        await start_session(server, db, ada, ben)
        assert bot.matches is not None
        await bot.matches.store.change_guild_settings(server.guild_id, {"seasons": "monthly"})
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await server.slash(ada, server.channel_id, "umtali leaderboard")
            assert answer.answered_at - answer.sent_at < LIMIT, answer.text()
            assert answer.callback_type == THINKING and answer.ephemeral
        # Once the season is open, its board is posted in the channel for all to see.
        month = season_name(EN, season_of(time.time(), "monthly") or "")
        await until(lambda: _public(server, server.channel_id, f"· {month} season"), "the board")
        await until(lambda: any(c.method == "DELETE" and c.path.endswith("/@original")
                                for c in server.calls) or None, "the thinking taken away")
        assert not server.errors


async def test_stats_and_a_page_asked_behind_a_waiting_save_are_answered_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        # Twelve rated players: a board of two pages.

        def rated() -> None:
            with sqlite3.connect(db) as c:
                c.executemany("INSERT INTO ratings (scope, user_id, mu, sigma, ordinal) "
                              "VALUES (?, ?, 25, 8, ?)",
                              [(server.guild_id, 1000 + i, float(i)) for i in range(12)])
        # Off the event loop: the bot in this process may be inside a transaction that needs
        # the loop to commit, and a write waiting on the loop's thread would wait for ever.
        await asyncio.to_thread(rated)
        asked = await server.slash(ada, server.channel_id, "umtali leaderboard")
        board = asked.response
        assert board is not None and not asked.ephemeral
        following = next(c for c in custom_ids(board) if c.split(":")[4] == "2")
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)
        # A minute later: the channel may have its next public board (review116).
        assert bot.matches is not None
        bot.matches.public_boards.posted.clear()
        async with write_locked(db, HELD):
            # A move's save waits for the lock; the reads of the bot's connection queue
            # behind it.
            moving = asyncio.ensure_future(server.slash(
                saved.player_ids[seat], saved.channel_id, "umtali play", {"move": str(move)}))
            await asyncio.sleep(0.1)
            stats, page = await asyncio.gather(
                server.slash(ben, server.channel_id, "umtali stats"),
                server.click(ada, board, following))  # (its pages are ada's: she asked)
            assert stats.answered_at - stats.sent_at < LIMIT, stats.text()
            assert stats.callback_type == THINKING
            assert page.answered_at - page.sent_at < LIMIT, page.text()
            assert page.callback_type == DEFERRED_UPDATE
            await moving
        await until(lambda: _public(server, server.channel_id, "Umtali · ben"), "the record")
        await until(lambda: "Page 2 of 2" in json.dumps(
            server.messages[int(board["id"])]["embeds"]) or None, "the page turned")
        assert not server.errors
