"""Answering within Discord's 3 seconds while the database is busy (``cogs/umtali/in_time``).

Another connection holds SQLite's write lock for a few seconds, as a long write elsewhere
would: a move or a resignation waits for it, within ``BUSY_TIMEOUT``. The interaction must be
acknowledged (deferred) before Discord's 3 seconds run out, then answered in full once the move
is saved. On the loopback Discord, in real time (SimCord's timers are virtual).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.in_time import DEFER_AFTER
from tests.db_lock import write_locked
from tests.loopback.driver import (
    SavedMatch,
    custom_ids,
    play_move,
    read_match,
    start_session,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

#: How long the write lock is held: longer than Discord waits, shorter than the busy timeout.
HELD = 3.5
#: Discord's limit for the first answer, less a margin for the way there.
LIMIT = 2.8

#: Interaction callback types: "thinking" (5), an update of the clicked message promised (6).
THINKING, DEFERRED_UPDATE = 5, 6


async def settled(bot: UmtaliBot) -> None:
    """Everything the bot had to send, sent."""
    assert bot.matches is not None
    await bot.matches.flush()


@dataclass
class Match:
    server: LoopbackDiscord
    db: Path
    bot: UmtaliBot
    saved: SavedMatch


@asynccontextmanager
async def a_match(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[Match]:
    """ada and ben in a match on the loopback Discord, the bot done with its start."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        yield Match(server, db, bot, saved)
        await settled(bot)
        assert not server.errors


def version(db: Path, match_id: int) -> int:
    saved = read_match(db, match_id)
    assert saved is not None
    return saved.version


async def at_a_draw(server: LoopbackDiscord, db: Path, saved: SavedMatch
                    ) -> tuple[SavedMatch, int, dict[str, Any], str]:
    """The match played on to a turn that starts with a draw (the first turn of an
    eleven-card deal has none): the match then, the member to draw, their DM panel and its
    draw button's id."""
    while not any(m.kind is MoveKind.DRAW
                  for m in saved.session.view(saved.session.to_act).legal_moves):
        await play_move(server, db, saved.id)
        saved = read_match(db, saved.id) or saved
    user = saved.player_ids[saved.session.to_act]
    return saved, user, server.dm_messages(user)[-1], f"umtali:m:{saved.id}:{saved.version}:draw"


async def test_a_command_move_waiting_on_the_database_is_deferred_then_answered(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)  # nothing of the bot's own still in flight
        async with write_locked(db, HELD):
            answer = await server.slash(saved.player_ids[seat], saved.channel_id,
                                        "umtali play", {"move": str(move)})
            assert answer.callback_type == THINKING and answer.ephemeral
            assert DEFER_AFTER - 0.1 < answer.answered_at - answer.sent_at < LIMIT
            # Acknowledged while the move still waited.
            assert version(db, saved.id) == saved.version
        await until(lambda: version(db, saved.id) == saved.version + 1, "the move saved")
        # The "thinking" message became the seat's hand panel, at the new position.
        prefix = f"umtali:m:{saved.id}:{saved.version + 1}:"
        await until(lambda: any(c.startswith(prefix) for c in custom_ids(answer.response)),
                    "the panel in the deferred answer")


async def test_a_click_waiting_on_the_database_is_deferred_then_edits_its_panel(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        saved, user, panel, draw = await at_a_draw(server, db, saved)
        await settled(bot)  # nothing of the bot's own still in flight
        async with write_locked(db, HELD):
            answer = await server.click(user, panel, draw)
            assert answer.callback_type == DEFERRED_UPDATE
            assert answer.answered_at - answer.sent_at < LIMIT
            assert version(db, saved.id) == saved.version
        await until(lambda: version(db, saved.id) == saved.version + 1, "the draw saved")
        # The panel clicked, edited in place, offers the moves after the draw.
        prefix = f"umtali:m:{saved.id}:{saved.version + 1}:"
        await until(lambda: any(c.startswith(prefix)
                                for c in custom_ids(server.messages[int(panel["id"])])),
                    "the DM panel edited")


async def test_a_resignation_waiting_on_the_database_is_deferred_then_confirmed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        asked = await server.slash(saved.player_ids[0], saved.channel_id, "umtali resign")
        assert asked.response is not None
        question = asked.response
        yes = next(c for c in custom_ids(question) if c.endswith(":resign"))
        await settled(bot)  # nothing of the bot's own still in flight
        async with write_locked(db, HELD):
            answer = await server.click(saved.player_ids[0], question, yes)
            assert answer.callback_type == DEFERRED_UPDATE
            assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: (read_match(db, saved.id) or saved).status != "active",
                    "the resignation saved")
        await until(lambda: "You resigned" in str(server.messages[int(
            question["id"])].get("content")), "the question answered")


async def test_a_quick_move_is_answered_at_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, saved = m.server, m.db, m.saved
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        answer = await server.slash(saved.player_ids[seat], saved.channel_id,
                                    "umtali play", {"move": str(move)})
        assert answer.callback_type == 4 and answer.ephemeral
        assert version(db, saved.id) == saved.version + 1


async def test_my_hand_queued_behind_a_waiting_save_is_deferred_then_shown(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        assert saved.table_message_id is not None
        table = server.messages[saved.table_message_id]
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)  # nothing of the bot's own still in flight
        async with write_locked(db, HELD):
            # A move's save waits for the lock on the connection's one thread; the other
            # player's look at their hand queues behind it.
            moving = asyncio.ensure_future(server.slash(
                saved.player_ids[seat], saved.channel_id, "umtali play", {"move": str(move)}))
            await asyncio.sleep(0.1)
            answer = await server.click(saved.player_ids[1 - seat], table,
                                        f"umtali:m:{saved.id}:hand")
            # A new panel is coming: "thinking" in a message of the player's own, the table
            # left as it is.
            assert answer.callback_type == THINKING and answer.ephemeral
            assert answer.answered_at - answer.sent_at < LIMIT
            await moving
        prefix = f"umtali:m:{saved.id}:"
        await until(lambda: any(c.startswith(prefix) for c in custom_ids(answer.response)),
                    "the hand in the deferred answer")
        assert answer.ephemeral
        assert "hand.png" in json.dumps(answer.response)
