"""The loopback Discord answers a channel's history as Discord does (newest first, at most
``limit``): the bot reads it to look through a DM for a panel it sent but never saved, and an
unknown route there made a process test fail when its kill fell in that window."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from tests.loopback.driver import start_session, until
from tests.loopback.harness import bot_in_process, loopback_server


async def test_a_channels_history_is_read_newest_first(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        posted = await until(lambda: server.channel_messages(saved.channel_id) or None,
                             "the thread's messages")
        channel = bot.get_partial_messageable(saved.channel_id,
                                              type=discord.ChannelType.public_thread)
        read = [m.id async for m in channel.history(limit=100)]
        assert read == [int(m["id"]) for m in reversed(server.channel_messages(saved.channel_id))]
        assert read and len(read) >= len(posted)
        newest = [m.id async for m in channel.history(limit=1)]
        assert newest == read[:1]
        older = [m.id async for m in channel.history(limit=100, before=discord.Object(read[0]))]
        assert older == read[1:]
