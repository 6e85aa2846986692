"""Where a session can be started or its table brought (review50), through SimCord and a real
SQLite file.

A private thread the bot is not a member of (and where it may not manage threads, as the bot
invited with the README's permissions may not) takes the bot's answers to commands, but none of
its own messages: Discord says Missing Access. The challenge or practice offer was posted all
the same, and only the accept or the cut found out, cancelling the session with "ask a server
admin to check my permissions", which no permission fixes; a lost match's table brought there
by ``/umtali table`` was lost again at the bot's first own post there. Now the member is told
at once that the bot is not in the thread, and nothing is offered or moved.

And ``/umtali table`` in the match's own channel, where an admin took Attach Files away
during the match, was refused for that permission, though the table goes on there as text."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.builders import UserHandle
from simcord.enums import OverwriteType

from cogs.umtali.live import LiveMatch
from cogs.umtali.pictures import TABLE_FILE
from cogs.umtali.tables import TABLE_AGAIN
from tests.discord_helpers import World, custom_ids, flush, manager, play, start_match, thread_of
from umtali.players import GreedyPlayer

#: A private thread's type, as Discord numbers it.
PRIVATE_THREAD = 12
NOT_IN = ("I'm not a member of this private thread, so I can't post in it: add me to it "
          "(mention me in it), or use another channel.")
NOT_IN_RU = "Я не участник этой приватной ветки"


def _said(result: Any) -> str:
    assert result.response is not None
    embeds = result.response.embeds
    return str(result.response.content or "") + " ".join(
        str(e.description or "") for e in embeds)


def _statuses(db_path: Path) -> dict[int, str]:
    with sqlite3.connect(db_path) as c:
        return dict(c.execute("SELECT id, status FROM challenges"))


async def _private_thread(world: World, *, bot_in: bool = False) -> Any:
    """A private thread of ada's with ben in it, under a channel where the bot may not manage
    threads (the README's invite gives it no Manage Threads); the bot in it if ``bot_in``."""
    bot_user = world.bot.user
    assert bot_user is not None
    parent = world.guild.create_text_channel("club", overwrites={
        bot_user: discord.PermissionOverwrite(manage_threads=False)})
    backend = world.env.backend
    made = backend.create_thread(parent.id, "ours", world.alice.id, type=PRIVATE_THREAD)
    backend.add_thread_member(made.id, world.bob.id)
    if bot_in:
        backend.add_thread_member(made.id, bot_user.id)
    await world.env.settle()
    return next(t for t in parent.threads if t.id == made.id)


async def test_no_session_is_offered_in_a_private_thread_the_bot_is_not_in(
        world: World, db_path: Path, locales: dict[int, str],
        caplog: pytest.LogCaptureFixture) -> None:
    thread = await _private_thread(world)
    world.clock.advance(60)
    r = await world.alice.slash(thread, "umtali challenge", opponent=world.bob)
    assert r.acknowledged and r.ephemeral, _said(r)
    assert NOT_IN in _said(r), _said(r)
    world.clock.advance(60)
    r = await world.alice.slash(thread, "umtali practice")
    assert r.acknowledged and r.ephemeral, _said(r)
    assert NOT_IN in _said(r), _said(r)
    # Challenging the bot offers practice: refused alike.
    world.clock.advance(60)
    bot_member = world.guild.add_member(UserHandle(world.env, world.env.backend.bot_user))
    r = await world.alice.slash(thread, "umtali challenge", opponent=bot_member)
    assert r.acknowledged and r.ephemeral and NOT_IN in _said(r), _said(r)
    locales[world.alice.id] = "ru"
    world.clock.advance(60)
    r = await world.alice.slash(thread, "umtali practice")
    assert r.ephemeral and NOT_IN_RU in _said(r), _said(r)
    await flush(world)
    assert _statuses(db_path) == {} and thread.history() == []
    assert world.bot.matches is not None and world.bot.matches.matches == {}
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_private_thread_the_bot_is_in_hosts_the_match(world: World) -> None:
    thread = await _private_thread(world, bot_in=True)
    world.clock.advance(60)
    r = await world.alice.slash(thread, "umtali challenge", opponent=world.bob)
    assert r.acknowledged and not r.ephemeral, _said(r)
    accept = next(c for c in custom_ids(r.response) if c.endswith(":accept"))
    clicked = await world.bob.click(r.response, custom_id=accept)
    await world.bob.submit_modal(clicked, {"cut": ""})
    await flush(world)
    assert world.bot.matches is not None
    (live,) = world.bot.matches.matches.values()
    assert live.channel_id == thread.id and live.table_message_id is not None
    assert any(m.id == live.table_message_id for m in thread.history())


async def _lost(world: World) -> LiveMatch:
    """A match whose thread was deleted: it goes on in DMs."""
    live = await start_match(world, turn_timer=5)
    world.env.inject_error("*", f"/channels/{live.channel_id}/*", status=404, code=10003,
                           message="Unknown Channel", times=None)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost and not live.over
    return live


async def test_a_lost_match_is_not_brought_to_a_private_thread_the_bot_is_not_in(
        world: World) -> None:
    live = await _lost(world)
    thread = await _private_thread(world)
    r = await world.alice.slash(thread, "umtali table")
    assert r.acknowledged and r.ephemeral, _said(r)
    assert NOT_IN in _said(r), _said(r)
    await flush(world)
    assert live.channel_lost and thread.history() == []


def _files(world: World, allowed: bool) -> None:
    bot_user = world.bot.user
    assert bot_user is not None
    files = discord.Permissions(attach_files=True).value
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=bot_user.id, type=OverwriteType.MEMBER, allow=files if allowed else 0,
        deny=0 if allowed else files))


async def test_the_table_asked_again_where_attach_files_was_taken_away_comes_as_text(
        world: World) -> None:
    assert world.bot.matches is not None and world.bot.matches.pictures
    live = await start_match(world)
    thread = thread_of(world, live)
    _files(world, False)
    await world.env.settle()
    old = live.table_message_id
    r = await world.alice.slash(thread, "umtali table")
    assert r.acknowledged and not r.ephemeral, _said(r)
    await flush(world)
    assert live.table_message_id != old and not live.channel_lost
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    assert table.attachments == [] and table.embeds[0].fields
    # Attach Files given back, the table asked again (past the limit on posting it again)
    # carries its picture.
    _files(world, True)
    await world.env.settle()
    world.clock.advance(TABLE_AGAIN)
    r = await world.alice.slash(thread, "umtali table")
    assert r.acknowledged and not r.ephemeral, _said(r)
    await flush(world)
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    assert [a.filename for a in table.attachments] == [TABLE_FILE]


async def test_the_commands_are_offered_where_the_bot_was_added_not_to_user_installs(
        world: World) -> None:
    # Left to the application's settings, a bot whose owner ticked User Install (for its DMs,
    # say) had its commands in every server a member uses, the bot in it or not: a challenge
    # there was posted as the command's answer, and the table, the bot's own post, refused.
    # Guild installs only: in DMs with the bot, rules and display as ever.
    synced = [c for h in world.env.http_requests
              if h.method == "PUT" and h.path.endswith("/commands") for c in h.json or []]
    assert {c["name"] for c in synced} == {"umtali", "umtali-admin"}
    for command in synced:
        assert command.get("integration_types") == [0], command["name"]
    r = await world.alice.user.slash("umtali rules")
    assert r.acknowledged and r.ephemeral and r.response.embeds



async def test_a_season_channel_missing_three_permissions_lists_them_as_a_sentence(
        world: World, locales: dict[int, str]) -> None:
    # As a challenge's refusal lists them ("A, B and C"; it was "A and B and C" here).
    bot_user = world.bot.user
    assert bot_user is not None
    boss = manager(world)
    shut = discord.PermissionOverwrite(view_channel=False, send_messages=False,
                                       embed_links=False)
    closed = world.guild.create_text_channel("closed", overwrites={bot_user: shut})
    no = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=closed)
    assert no.ephemeral and _said(no) == (
        f"I can't post season summaries in <#{closed.id}>: I need the **View Channel**, "
        "**Send Messages** and **Embed Links** permissions there. Nothing was changed."), \
        _said(no)
    locales[boss.id] = "ru"
    no = await boss.slash(world.channel, "umtali-admin settings", season_channel=closed)
    assert "**Просматривать каналы**, **Отправлять сообщения** и **Встраивать ссылки**" \
        in _said(no), _said(no)
    # Chosen while the bot could post there, then closed to it: the settings say so alike.
    locales[boss.id] = "en-US"
    later = world.guild.create_text_channel("later")
    ok = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=later)
    assert f"- Season summaries: <#{later.id}>" in _said(ok), _said(ok)
    world.env.backend.set_overwrite(later.id, Overwrite(
        target_id=bot_user.id, type=OverwriteType.MEMBER, deny=shut.pair()[1].value))
    await world.env.settle()
    ok = await boss.slash(world.channel, "umtali-admin settings")
    assert "I need the **View Channel**, **Send Messages** and **Embed Links** permissions " \
        "there." in _said(ok), _said(ok)


@pytest.mark.parametrize("kind", ["voice", "stage"])
async def test_a_voice_or_stage_channel_s_chat_plays_in_the_channel_and_says_so(
        world: World, kind: str) -> None:
    # Discord makes no thread in a voice or stage channel's chat ("Cannot execute action on
    # this channel type"; SimCord would make one). The bot asked for one at every accept, and
    # its settings said threads on there, as where it makes them.
    chat = (world.guild.create_voice_channel if kind == "voice"
            else world.guild.create_stage_channel)("lounge")
    world.env.inject_error("POST", f"/channels/{chat.id}/messages/*/threads", status=400,
                           code=50024, message="Cannot execute action on this channel type",
                           times=None)
    boss = manager(world)
    ok = await boss.slash(chat, "umtali-admin settings", threads=True)
    assert "- Threads: on" in _said(ok) and (
        "Threads are on, but a voice or stage channel's chat has none: matches started here "
        "are played in the channel itself.") in _said(ok), _said(ok)
    world.clock.advance(60)
    r = await world.alice.slash(chat, "umtali challenge", opponent=world.bob)
    assert r.acknowledged and not r.ephemeral, _said(r)
    accept = next(c for c in custom_ids(r.response) if c.endswith(":accept"))
    await world.bob.submit_modal(await world.bob.click(r.response, custom_id=accept),
                                 {"cut": ""})
    await flush(world)
    assert world.bot.matches is not None
    (live,) = world.bot.matches.matches.values()
    assert live.channel_id == chat.id and any(m.id == live.table_message_id
                                              for m in chat.history())
    assert not [h for h in world.env.http_requests if h.path.endswith("/threads")]
