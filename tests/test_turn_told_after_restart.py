"""review145: the channel's "your turn" line went out silent for a player no DM had told. A
correspondence match brought back in the middle of a turn (a restart, the turn's DM and line
owed, Discord having failed both) marked the turn told without a DM (none is sent mid-turn),
and the line owed was then sent silent: nothing notified the player, for hours perhaps. Now
the line is silent only if a DM was sent here for this turn. Loopback Discord, SQLite file."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import discord.http
import pytest

from tests.loopback.driver import play_move, query, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server, retries_at_once

SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS
POSTS = r"^/channels/[0-9]+/messages$"


async def test_the_owed_turn_line_pings_when_no_dm_told_the_turn(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    retries_at_once(monkeypatch, discord.http)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db):
            saved = await start_session(server, db, ada, ben, time_control="correspondence")
            first = saved.session.to_act
            await until(lambda: server.dm_messages(saved.player_ids[first]), "the first DM")
            await asyncio.sleep(0.3)
            fault = server.fail("POST", POSTS, times=10_000, status=503)
            while (now := read_match(db, saved.id)) is not None and \
                    now.session.to_act == first:
                await play_move(server, db, saved.id)
            await asyncio.sleep(0.5)
        nxt = saved.player_ids[1 - first]
        owed = query(db, "SELECT unsent FROM matches WHERE id = ?", saved.id)[0]["unsent"]
        assert owed and f"<@{nxt}>" in owed  # the turn's line still owed
        # The turn began 20 minutes ago (past FRESH): brought back mid-turn, no DM is sent.
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE matches SET deadline = deadline - 1200 WHERE id = ?",
                         (saved.id,))
        fault.times = fault.hits
        start = len(server.calls)
        async with bot_in_process(server, db):
            saved_now = read_match(db, saved.id)
            assert saved_now is not None
            channel = f"/channels/{saved.channel_id}/messages"

            def lines() -> list[int]:
                return [int(c.body.get("flags") or 0) for c in server.calls[start:]
                        if c.method == "POST" and c.path == channel and c.status == 200
                        and f"<@{nxt}>, your turn." in (c.body.get("content") or "")]
            flags = await until(lines, "the owed turn line")
            await asyncio.sleep(0.3)
            assert not flags[0] & SILENT, "sent silent, though no DM told the turn"
