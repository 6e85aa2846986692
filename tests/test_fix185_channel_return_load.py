"""fix185 (review167 on fix180's return of a lost match to its channel): lost matches tried
together (after a restart) are fetched ``AT_ONCE`` at most at a time, their next tries spread;
a server's channel event does no work for a match not lost; a thread whose parent channel is
not cached ends in no error; a return waits for a player's ``/umtali table`` under way.
SimCord, a real SQLite file."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.backend import serializers
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from cogs.umtali import channel_return
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import (
    World,
    accept,
    challenge,
    flush,
    manager,
    start_match,
    thread_of,
)
from tests.test_fix180_channel_return import (
    SHUT,
    _lost,
    _lost_in_an_archived_thread,
    _open,
    _shut,
    _turn,
)

#: Returns under way at once (``channel_return.AT_ONCE``), as review167 asked.
AT_ONCE = 4


def _service(world: World) -> Any:
    svc = world.bot.matches
    assert svc is not None
    return svc


async def _another(world: World) -> LiveMatch:
    """One more match (a new thread), between two new members: one match a member a server."""
    svc = _service(world)
    before = set(svc.matches)
    n = len(before)
    one, two = (world.guild.add_member(world.env.create_user(f"p{n}{x}")) for x in "ab")
    result = await challenge(world, one, two, turn_timer=0)
    assert (await accept(two, result.response)).acknowledged
    await flush(world)
    (new,) = set(svc.matches) - before
    live: LiveMatch = svc.matches[new]
    _players[live.id] = (one, two)
    return live


_players: dict[int, tuple[Any, Any]] = {}


async def _their_turn(world: World, live: LiveMatch) -> None:
    """A turn played in ``live`` by its own players (``play`` has alice and bob play)."""
    was = world.alice, world.bob
    world.alice, world.bob = _players.pop(live.id, was)
    try:
        await _turn(world, live)
    finally:
        world.alice, world.bob = was


async def test_many_lost_matches_are_fetched_a_few_at_a_time_and_tried_apart_later(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.INFO)
    matches = [await _another(world) for _ in range(AT_ONCE + 3)]
    _shut(world)
    await world.env.settle()
    for live in matches:
        await _their_turn(world, live)
        assert live.channel_lost
    # Not in the cache (deleted; an archived thread is not either): each asked of Discord.
    for live in matches:
        world.env.backend.delete_channel(live.channel_id)
    await world.env.settle()
    fetch = world.bot.fetch_channel
    flying, most = 0, 0

    async def counted(channel_id: int) -> Any:
        nonlocal flying, most
        flying += 1
        most = max(most, flying)
        try:
            await asyncio.sleep(0.01)  # (a request takes a while: the others start meanwhile)
            return await fetch(channel_id)
        finally:
            flying -= 1

    monkeypatch.setattr(world.bot, "fetch_channel", counted)
    world.clock.advance(channel_return.RETURN_AGAIN + channel_return.CHECK_EVERY)
    svc = _service(world)
    await svc.check_timers()
    await flush(world)
    assert all(channel_return.deleted(live) for live in matches)
    assert most == AT_ONCE, most
    # Their next tries (were they not deleted) fall apart, not all at one check for ever.
    assert len({channel_return._tried[live] for live in matches}) == len(matches)


async def test_an_update_in_a_server_with_nothing_lost_looks_at_no_match(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.INFO)
    matches = [await _another(world) for _ in range(3)]
    looked: list[LiveMatch] = []
    due = channel_return.due

    def counted(svc: Any, live: LiveMatch) -> bool:
        looked.append(live)
        return due(svc, live)

    monkeypatch.setattr(channel_return, "due", counted)
    _shut(world)  # (a channel's update, twice: gateway events)
    await world.env.settle()
    _open(world)
    await world.env.settle()
    await flush(world)
    assert looked == [], len(looked)
    # One lost: that one alone looked at, and it still returns.
    live = matches[0]
    _shut(world)
    await world.env.settle()
    await _their_turn(world, live)
    assert live.channel_lost
    for other in matches[1:]:
        assert not other.channel_lost
    world.clock.advance(channel_return.SETTLE)
    _open(world)
    await world.env.settle()
    await flush(world)
    assert looked and set(looked) == {live}
    assert not live.channel_lost


async def test_a_thread_whose_parent_is_not_cached_ends_in_no_error(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=0)
    await _lost(world, live, caplog)
    world.clock.advance(channel_return.SETTLE)
    guild = world.bot.get_guild(live.guild_id)
    assert guild is not None
    thread = guild.get_thread(live.channel_id)
    assert isinstance(thread, discord.Thread)
    parent = guild._channels.pop(thread.parent_id)  # (as discord.py may not have it)
    try:
        await thread.edit(name="renamed")  # a thread's update: the gateway's event
        await world.env.settle()
        await flush(world)
        boss = manager(world)
        answer = await boss.slash(world.channel, "umtali-admin matches")
        await flush(world)
        assert "in direct messages" in (answer.response.embeds[0].description or "")
    finally:
        guild._channels[parent.id] = parent
    assert live.channel_lost
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_return_waits_for_a_table_posted_by_a_player(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=0)
    thread = thread_of(world, live)
    await _lost(world, live, caplog)
    svc = _service(world)
    world.clock.advance(channel_return.SETTLE)
    with svc.tables_under_way.posting(live.id):
        mine = svc.tables_under_way.pending(live.id)
        _open(world)
        await world.env.settle()
        await flush(world)
        # Not posted beside the player's: theirs is the post under way, still.
        assert live.channel_lost
        assert svc.tables_under_way.pending(live.id) is mine
    assert not [m for m in thread.history() if "back here" in (m.content or "")]
    # Later (the player's post not made, say), the clock's check brings it back.
    world.clock.advance(channel_return.RETURN_AGAIN + channel_return.CHECK_EVERY)
    await svc.check_timers()
    await flush(world)
    assert not live.channel_lost


async def test_a_thread_unarchived_brings_its_match_back_at_once(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """discord.py tells of a thread unarchived, which it had forgotten, as a thread joined."""
    live = await _lost_in_an_archived_thread(world, caplog)
    _open(world)  # (before it settled: not tried then)
    await world.env.settle()
    await flush(world)
    assert live.channel_lost
    world.clock.advance(channel_return.SETTLE)
    world.env.backend.edit_channel(live.channel_id, {}, thread_metadata={"archived": False})
    await world.env.settle()
    await flush(world)
    assert not live.channel_lost and not live.over


async def test_a_role_given_to_the_bot_brings_its_match_back_at_once(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Discord sends the bot's own member's updates without the members intent (SimCord drops
    them: delivered here to discord.py's parser as Discord would)."""
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=0)
    backend = world.env.backend
    bot = world.bot.user
    assert bot is not None
    everyone = world.guild.id
    backend.set_overwrite(world.channel.id, Overwrite(
        target_id=everyone, type=OverwriteType.ROLE, deny=SHUT.pair()[1].value))
    await world.env.settle()
    await _turn(world, live)
    assert live.channel_lost
    role = backend.create_role(world.guild.id, "rummy bot")
    backend.set_overwrite(world.channel.id, Overwrite(
        target_id=role.id, type=OverwriteType.ROLE, allow=SHUT.pair()[1].value))
    await world.env.settle()
    await flush(world)
    assert live.channel_lost  # (not settled yet; and the bot has not the role)
    world.clock.advance(channel_return.SETTLE)
    backend.add_member_role(world.guild.id, bot.id, role.id)  # (dropped by SimCord)
    guild = backend.get_guild(world.guild.id)
    payload = dict(serializers.member_payload(backend, guild, guild.members[bot.id]))
    payload["guild_id"] = str(world.guild.id)
    world.bot._connection.parsers["GUILD_MEMBER_UPDATE"](payload)
    await world.env.settle()
    await flush(world)
    assert not live.channel_lost and not live.over
