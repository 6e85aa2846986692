"""The bot kicked from a server, through the loopback Discord's sockets: GUILD_DELETE over the
gateway, and 403 Missing Access from then on for the server's channels, as Discord answers.
The server's matches end with no result and nothing more is tried in its channels; a server in
an outage (GUILD_DELETE marked unavailable, or listed unavailable in READY and not yet arrived)
keeps its matches, whether the bot was running or starting."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

from scale import ShardPlan
from tests.loopback.driver import play_move, query, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord


def _status(db: Path, match_id: int) -> str:
    saved = read_match(db, match_id)
    assert saved is not None
    return saved.status


def _told(server: LoopbackDiscord, member: int, text: str) -> list[dict[str, Any]]:
    return [m for m in server.dm_messages(member) if text in (m.get("content") or "")]


def _ended_unrated(db: Path, match_id: int) -> None:
    assert [tuple(r) for r in query(db, "SELECT status, how, deadline FROM matches WHERE id = ?",
                                    match_id)] == [("finished", "abandoned", None)]
    assert query(db, "SELECT * FROM session_results WHERE match_id = ?", match_id) == []
    assert query(db, "SELECT * FROM active_players WHERE match_id = ?", match_id) == []


async def _back_from_its_outage(server: LoopbackDiscord, db: Path, bot: discord.Client,
                                guild_id: int, match_id: int) -> None:
    """The server in an outage did not remove the bot: its match stays in play through the
    outage and after it, a move played there once it is back."""
    guild = bot.get_guild(guild_id)
    assert guild is not None and guild.unavailable
    assert _status(db, match_id) == "active"
    await server.guild_back(guild_id)
    await until(lambda: not bot.get_guild(guild_id).unavailable,  # type: ignore[union-attr]
                "the server back")
    await play_move(server, db, match_id)
    assert _status(db, match_id) == "active"


async def test_a_kick_ends_the_servers_matches_and_an_outage_keeps_its_own(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        other_guild, other_channel = server.add_guild("Chess Club")
        async with bot_in_process(server, db) as bot:
            kicked = await start_session(server, db, alice, bob, turn_timer=5)
            kept = await start_session(server, db, alice, bob, channel_id=other_channel,
                                       turn_timer=5)
            await server.guild_outage(other_guild)
            await server.remove_bot(server.guild_id)
            await until(lambda: _status(db, kicked.id) == "finished", "the match ended")
            _ended_unrated(db, kicked.id)
            for member in (alice, bob):
                await until(lambda m=member: _told(  # type: ignore[misc]
                    server, m, "I was removed from the server Railway Club"), "the DM")
            assert bot.matches is not None
            await bot.matches.flush()
            await asyncio.sleep(0.2)
            # Nothing was tried in the kicked server's channels: no 403 to retry against.
            assert [c.path for c in server.calls if c.status == 403] == []
            # The server in an outage is not one that removed the bot.
            await _back_from_its_outage(server, db, bot, other_guild, kept.id)


async def test_a_kick_while_the_bot_was_down_is_found_at_its_start_but_an_outage_is_not(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        other_guild, other_channel = server.add_guild("Chess Club")
        async with bot_in_process(server, db):
            kicked = await start_session(server, db, alice, bob, turn_timer=5)
            kept = await start_session(server, db, alice, bob, channel_id=other_channel)
        # While the bot is down: kicked from one server (its GUILD_DELETE reaches nobody),
        # and the other in an outage as it starts (in READY, never arriving).
        await server.remove_bot(server.guild_id)
        server.outages.add(other_guild)
        async with bot_in_process(server, db) as bot:
            await until(lambda: _status(db, kicked.id) == "finished", "the match ended")
            _ended_unrated(db, kicked.id)
            await until(lambda: _told(server, bob, "I was removed from the server of match "
                                      f"#{kicked.id}"), "the DM")
            await _back_from_its_outage(server, db, bot, other_guild, kept.id)
            assert [c.path for c in server.calls if c.status == 403] == []


async def test_only_the_shard_that_owns_a_server_ends_its_matches(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        on_zero, on_one = server.two_guilds()
        kicked_guild = int(server.channels[on_one]["guild_id"])
        async with bot_in_process(server, db, ShardPlan(2)):
            kept = await start_session(server, db, alice, bob, channel_id=on_zero)
            kicked = await start_session(server, db, alice, bob, channel_id=on_one)
        # (The stopped process's sessions are over: the loopback would wait for them.)
        server.gateway.current.clear()
        # A process running shard 0 alone: the server on shard 1 is not in its READY, which
        # says nothing of it; kicked meanwhile, shard 1's GUILD_DELETE reaches nobody.
        async with bot_in_process(server, db, ShardPlan(2, (0,))) as bot:
            assert bot.get_guild(kicked_guild) is None
            await server.remove_bot(kicked_guild)
            await asyncio.sleep(0.2)
            assert _status(db, kicked.id) == "active"
        server.gateway.current.clear()
        # Shard 1's process finds it at its start; shard 0's server keeps its match.
        async with bot_in_process(server, db, ShardPlan(2, (1,))):
            await until(lambda: _status(db, kicked.id) == "finished", "the match ended")
            _ended_unrated(db, kicked.id)
            assert _status(db, kept.id) == "active"
