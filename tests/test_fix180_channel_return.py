"""fix180 (review166): a match moved to direct messages because the bot lost Send Messages in
its channel goes back there by itself once the permission is given back (the gateway says the
channel changed; or the clock's check finds it): the table posted there and the match moved to
it as ``/umtali table`` does, the stale table left there retired, the players told once. A
channel deleted stays lost; returns are rate limited. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord import Env
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from cogs.umtali import channel_return
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, manager, play, start_match, thread_of
from tests.test_discord_languages import _world
from umtali.players import GreedyPlayer

SHUT = discord.PermissionOverwrite(send_messages=False, send_messages_in_threads=False)


def _shut(world: World) -> None:
    bot = world.bot.user
    assert bot is not None
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=bot.id, type=OverwriteType.MEMBER, deny=SHUT.pair()[1].value))


def _open(world: World) -> None:
    bot = world.bot.user
    assert bot is not None
    world.env.backend.delete_overwrite(world.channel.id, bot.id)


async def _turn(world: World, live: LiveMatch) -> None:
    seat = live.session.to_act
    while live.session.to_act == seat and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)


async def _lost(world: World, live: LiveMatch, caplog: pytest.LogCaptureFixture) -> int:
    """The match lost to DMs by the permission taken away: its table's id there."""
    table = live.table_message_id
    assert table is not None
    _shut(world)
    await world.env.settle()
    await _turn(world, live)
    assert live.channel_lost and not live.over
    assert any("goes on in direct messages" in r.getMessage() for r in caplog.records)
    return table


async def _lost_in_an_archived_thread(world: World,
                                      caplog: pytest.LogCaptureFixture) -> LiveMatch:
    """A match lost to DMs whose thread was then archived: discord.py forgets it."""
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=0)
    await _lost(world, live, caplog)
    cached = world.bot.get_channel(live.channel_id)
    assert isinstance(cached, discord.Thread)
    await cached.edit(archived=True)
    await world.env.settle()
    assert world.bot.get_channel(live.channel_id) is None
    return live


async def test_given_back_the_permission_the_match_returns_by_itself(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=5)
    thread = thread_of(world, live)
    stale = await _lost(world, live, caplog)
    # Given back at once (an admin's edit in two steps): it settles first.
    _open(world)
    await world.env.settle()
    await flush(world)
    assert live.channel_lost
    _shut(world)
    await world.env.settle()
    world.clock.advance(channel_return.SETTLE)
    _open(world)
    await world.env.settle()
    await flush(world)
    assert not live.channel_lost, "still in direct messages"
    assert live.channel_id == thread.id and live.table_message_id != stale
    said = [m.content or "" for m in thread.history()]
    back = [s for s in said if "back here" in s]
    assert len(back) == 1 and f"<@{world.alice.id}>" in back[0], said
    # The table left there no longer offers moves nor a running clock: it points at the new.
    old = next(m for m in thread.history() if m.id == stale)
    assert "moved" in (old.content or "") + "".join(e.description or "" for e in old.embeds)
    # Play goes on in the channel: the next turn is announced there.
    before = len(thread.history())
    await _turn(world, live)
    assert not live.channel_lost and len(thread.history()) > before
    # The admin's list no longer says direct messages.
    boss = manager(world)
    answer = await boss.slash(world.channel, "umtali-admin matches")
    await flush(world)
    assert "direct messages" not in (answer.response.embeds[0].description or "")


async def test_flapping_is_rate_limited_and_the_clock_check_finds_it_later(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=0)
    await _lost(world, live, caplog)
    world.clock.advance(channel_return.SETTLE)
    _open(world)
    await world.env.settle()
    await flush(world)
    assert not live.channel_lost
    # Taken away again at once: lost again, and not back at once when given back.
    await _lost(world, live, caplog)
    world.clock.advance(channel_return.SETTLE)
    _open(world)
    await world.env.settle()
    await flush(world)
    assert live.channel_lost
    # Later, the clock's check brings it back (no event needed).
    world.clock.advance(channel_return.RETURN_AGAIN + channel_return.CHECK_EVERY)
    svc = world.bot.matches
    assert svc is not None
    await svc.check_timers()
    await flush(world)
    assert not live.over and not live.channel_lost, [
        r.getMessage() for r in caplog.records if "match" in r.getMessage()][-5:]


async def test_while_lost_the_admin_is_told_why_and_a_deleted_channel_stays_lost(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture,
        locales: dict[int, str]) -> None:
    caplog.set_level(logging.INFO)
    boss = manager(world)
    live = await start_match(world, turn_timer=5)
    await _lost(world, live, caplog)
    answer = await boss.slash(world.channel, "umtali-admin matches")
    await flush(world)
    line = answer.response.embeds[0].description or ""
    assert "in direct messages" in line and "Send Messages" in line and \
        f"<#{live.channel_id}>" in line, line
    locales[boss.id] = "ru"
    answer = await boss.slash(world.channel, "umtali-admin matches")
    await flush(world)
    line = answer.response.embeds[0].description or ""
    assert "в личных сообщениях" in line and "Отправлять сообщения" in line, line


async def test_a_deleted_channel_stays_lost(world: World, db_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    boss = manager(world)
    live = await start_match(world, turn_timer=0)
    thread = thread_of(world, live)
    await _lost(world, live, caplog)
    since = len(world.env.http_requests)
    world.env.backend.delete_channel(thread.id)
    _open(world)
    await world.env.settle()
    world.clock.advance(channel_return.RETURN_AGAIN + channel_return.CHECK_EVERY)
    svc = world.bot.matches
    assert svc is not None
    await svc.check_timers()
    await flush(world)
    assert live.channel_lost and not live.over
    # Not in the cache (an archived thread is not either): asked of Discord once, found
    # deleted, nothing posted there, and not asked again.
    asked = [r for r in world.env.http_requests[since:] if r.path.startswith(
        f"/channels/{thread.id}")]
    assert [(r.method, r.path) for r in asked] == [("GET", f"/channels/{thread.id}")], asked
    world.clock.advance(channel_return.RETURN_AGAIN + channel_return.CHECK_EVERY)
    await svc.check_timers()
    await flush(world)
    assert len([r for r in world.env.http_requests[since:] if r.path.startswith(
        f"/channels/{thread.id}")]) == 1
    answer = await boss.slash(world.channel, "umtali-admin matches")
    await flush(world)
    line = answer.response.embeds[0].description or ""
    assert "in direct messages (its channel was deleted)" in line, line


async def test_an_archived_thread_is_found_and_the_match_returns(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """discord.py forgets an archived thread: the return asks Discord for it."""
    live = await _lost_in_an_archived_thread(world, caplog)
    _open(world)
    await world.env.settle()
    world.clock.advance(channel_return.RETURN_AGAIN + channel_return.CHECK_EVERY)
    svc = world.bot.matches
    assert svc is not None
    since = len(world.env.http_requests)
    await svc.check_timers()
    await flush(world)
    assert not live.channel_lost and not live.over
    assert ("GET", f"/channels/{live.channel_id}") in [
        (r.method, r.path) for r in world.env.http_requests[since:]]


async def test_restarted_while_lost_in_a_russian_server(
        simcord_env: Env, clock: Any, make_bot: Callable[[], Any],
        caplog: pytest.LogCaptureFixture) -> None:
    """Lost, the bot restarted, the permission given back with no event heard (a role given,
    say): the clock's check brings the match back, the players told in the server's
    language."""
    caplog.set_level(logging.INFO)
    world = _world(simcord_env, clock, "ru")
    live = await start_match(world, turn_timer=0)
    match_id = live.id
    await _lost(world, live, caplog)
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    # Given back behind the bot's back: no event to hear, the cache as Discord has it.
    bot = world.bot.user
    assert bot is not None
    world.env.backend.get_channel(world.channel.id).overwrites = []
    svc = world.bot.matches
    assert svc is not None
    reloaded = svc.matches[match_id]
    assert reloaded.channel_lost
    await svc.check_timers()  # found lost now: it settles first
    await flush(world)
    assert reloaded.channel_lost
    await world.env.restart_bot(make_bot())  # (the cache read afresh, as at a reconnect)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    reloaded = svc.matches[match_id]
    await svc.check_timers()
    world.clock.advance(channel_return.SETTLE + channel_return.CHECK_EVERY)
    await svc.check_timers()
    await flush(world)
    assert not reloaded.channel_lost
    thread = thread_of(world, reloaded)
    back = [m.content for m in thread.history() if "вернулся сюда" in (m.content or "")]
    assert len(back) == 1 and "this match" not in back[0], back
