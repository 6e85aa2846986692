"""Shards: the loopback Discord routes each guild's events to its shard, and the bot runs them.

Discord's rules, as the loopback models them: ``GET /gateway/bot`` recommends a shard count;
IDENTIFY carries ``shard: [id, count]``; a guild's events go to shard ``(guild_id >> 22) %
count``, DMs to shard 0; a bad shard is closed with 4010, and an unsharded session holding
too many guilds with 4011.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from scale import ShardPlan
from tests.loopback.driver import custom_ids, play_out, read_match, start_session, until
from tests.loopback.gateway import INVALID_SHARD, SHARDING_REQUIRED, GatewaySession
from tests.loopback.harness import BotProcess, bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord


def events(session: GatewaySession, kind: str) -> list[dict[str, Any]]:
    return [f["d"] for f in session.events if f["t"] == kind]


async def identify(server: LoopbackDiscord, shard: list[int] | None) -> tuple[
        list[dict[str, Any]], int | None]:
    """IDENTIFY over a raw websocket: the events received until quiet, and the close code."""
    frames: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(server.gateway_url) as ws:
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10
        d: dict[str, Any] = {"token": "loopback-token", "intents": 1, "properties": {}}
        if shard is not None:
            d["shard"] = shard
        await ws.send_json({"op": 2, "d": d})
        while True:
            try:
                msg = await ws.receive(timeout=0.5)
            except TimeoutError:
                return frames, None
            if msg.type is not aiohttp.WSMsgType.TEXT:
                return frames, ws.close_code
            frames.append(json.loads(msg.data))


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopbackDiscord]:
    async with loopback_server(monkeypatch) as server:
        yield server


async def test_each_shard_gets_its_guilds_only(server: LoopbackDiscord) -> None:
    on0, on1 = server.two_guilds()
    guild0, guild1 = (int(server.channels[c]["guild_id"]) for c in (on0, on1))
    frames, closed = await identify(server, [1, 2])
    assert closed is None
    ready, created = frames[0]["d"], [f["d"]["id"] for f in frames[1:]]
    assert ready["shard"] == [1, 2]
    assert [g["id"] for g in ready["guilds"]] == [str(guild1)] and created == [str(guild1)]
    frames, _ = await identify(server, [0, 2])
    assert [f["d"]["id"] for f in frames[1:]] == [str(guild0)]
    # Unsharded, one session holds every guild.
    frames, _ = await identify(server, None)
    assert sorted(f["d"]["id"] for f in frames[1:]) == sorted([str(guild0), str(guild1)])


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], ["0", 2], [True, 2]])
async def test_a_bad_shard_is_refused_with_4010(server: LoopbackDiscord,
                                                shard: list[Any]) -> None:
    frames, closed = await identify(server, shard)
    assert (frames, closed) == ([], INVALID_SHARD)
    assert server.identifies == 0


async def test_too_many_guilds_for_one_session_is_refused_with_4011(
        server: LoopbackDiscord) -> None:
    server.two_guilds()
    server.gateway.max_guilds_per_shard = 1
    assert await identify(server, None) == ([], SHARDING_REQUIRED)
    assert await identify(server, [0, 1]) == ([], SHARDING_REQUIRED)
    frames, closed = await identify(server, [0, 2])
    assert closed is None and frames[0]["t"] == "READY"


async def test_the_gateway_recommends_a_shard_count(server: LoopbackDiscord) -> None:
    server.recommended_shards = 3
    async with aiohttp.ClientSession() as http, http.get(
            server.base_url + "/gateway/bot") as answer:
        data = await answer.json()
    assert data["shards"] == 3 and data["url"] == server.gateway_url
    assert data["session_start_limit"]["max_concurrency"] == 1


async def test_two_shards_in_one_process_play_in_both_guilds(
        server: LoopbackDiscord, tmp_path: Path) -> None:
    on0, on1 = server.two_guilds()
    db = tmp_path / "umtali.sqlite3"
    async with bot_in_process(server, db, ShardPlan(2)) as bot:
        assert isinstance(bot, discord.AutoShardedClient)
        assert sorted(bot.shards) == [0, 1] and len(bot.guilds) == 2
        assert sorted(server.gateway.identified) == [[0, 2], [1, 2]]  # type: ignore[type-var]
        shard0, shard1 = server.gateway.current[0], server.gateway.current[1]
        alice, bob = server.add_member("ada"), server.add_member("ben")
        carol, dave = server.add_member("cy"), server.add_member("dee")
        first = await start_session(server, db, alice, bob, channel_id=on0)
        second = await start_session(server, db, carol, dave, channel_id=on1,
                                     variant="russian")
        # Each guild's interactions went to its shard only.
        assert {i["channel_id"] for i in events(shard0, "INTERACTION_CREATE")} == {str(on0)}
        assert {i["channel_id"] for i in events(shard1, "INTERACTION_CREATE")} == {str(on1)}
        # A click in a DM, on the hand of the match on shard 1, arrives on shard 0.
        user = second.player_ids[second.session.to_act]
        draw = f"umtali:m:{second.id}:0:draw"
        dm = await until(lambda: next((m for m in server.dm_messages(user)
                                       if draw in custom_ids(m)), None), "the hand's DM")
        clicked = await server.click(user, dm, draw)
        assert clicked.callback_type == 7 and "guild_id" not in clicked.payload
        assert clicked.payload in events(shard0, "INTERACTION_CREATE")
        assert clicked.payload not in events(shard1, "INTERACTION_CREATE")
        moved = read_match(db, second.id)
        assert moved is not None and moved.version == 1
        # Both sessions move on, in their threads (created on their guild's shard).
        for saved in (first, second):
            await play_out(server, db, saved.id, moves=12)
        assert [t["id"] for t in events(shard0, "THREAD_CREATE")] == [str(first.channel_id)]
        assert [t["id"] for t in events(shard1, "THREAD_CREATE")] == [str(second.channel_id)]
        assert not server.gateway.lost


async def test_a_dropped_shard_resumes_with_its_own_events(
        server: LoopbackDiscord, tmp_path: Path) -> None:
    _, on1 = server.two_guilds()
    db = tmp_path / "umtali.sqlite3"
    async with bot_in_process(server, db, ShardPlan(2)):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        shard0 = server.gateway.current[0]
        before = len(shard0.events)
        await server.drop_gateway(1)
        # The challenge is sent while shard 1 is away: replayed to it when it resumes.
        saved = await start_session(server, db, alice, bob, channel_id=on1)
        assert (server.gateway.resumes, server.identifies) == (1, 2)
        assert len(shard0.events) == before, "shard 0 got nothing of the other guild"
        thread = server.channels[saved.channel_id]
        assert thread["guild_id"] == server.channels[on1]["guild_id"]


async def test_auto_runs_as_many_shards_as_discord_recommends(
        server: LoopbackDiscord, tmp_path: Path) -> None:
    server.recommended_shards = 2
    async with bot_in_process(server, tmp_path / "umtali.sqlite3", ShardPlan(None)) as bot:
        assert bot.shard_count == 2
        assert sorted(server.gateway.identified) == [[0, 2], [1, 2]]  # type: ignore[type-var]


async def test_two_processes_each_get_only_their_shards_guilds(
        server: LoopbackDiscord, tmp_path: Path) -> None:
    on0, on1 = server.two_guilds()
    alice, bob = server.add_member("ada"), server.add_member("ben")
    bots = [BotProcess(server, tmp_path / f"shard{n}.sqlite3", tmp_path, env={
        "UMTALI_SHARD_COUNT": "2", "UMTALI_SHARD_IDS": str(n)}) for n in (0, 1)]
    try:
        for bot in bots:
            await bot.start()
        assert server.gateway.identified == [[0, 2], [1, 2]]
        db0, db1 = (bot.db_path for bot in bots)
        # Each guild's challenge is answered by the process of its shard: its own database.
        later = await start_session(server, db1, alice, bob, channel_id=on1)
        assert read_match(db0) is None
        first = await start_session(server, db0, alice, bob, channel_id=on0,
                                    variant="russian")
        again = read_match(db1)
        assert again is not None and again.id == later.id, "the second challenge is not there"
        # A click in a DM arrives on shard 0: the first process.
        user = first.player_ids[first.session.to_act]
        draw = f"umtali:m:{first.id}:0:draw"
        dm = await until(lambda: next((m for m in server.dm_messages(user)
                                       if draw in custom_ids(m)), None), "the hand's DM")
        await server.click(user, dm, draw)
        moved = read_match(db0, first.id)
        assert moved is not None and moved.version == 1
    finally:
        for bot in bots:
            await bot.stop()


async def test_a_bot_that_must_shard_says_so(server: LoopbackDiscord, tmp_path: Path) -> None:
    server.two_guilds()
    server.gateway.max_guilds_per_shard = 1
    bot = BotProcess(server, tmp_path / "umtali.sqlite3", tmp_path)
    code = await bot.run_to_exit()
    assert code == 2 and server.gateway.refused == [SHARDING_REQUIRED]
    said = bot.log.read_text()
    assert "error: Discord requires sharding" in said and "UMTALI_SHARD_COUNT" in said
    assert "Traceback" not in said
