"""A permission refusal names what the channel denies the bot, not what Discord only implies
from it (review166): Send Messages denied alone read "I need the Send Messages and Embed Links
permissions", a hidden channel all three, and an admin went looking for denials that were not
there. SimCord (the channels' overwrites as Discord reckons them), a real SQLite file."""

from __future__ import annotations

from typing import Any

import discord

from tests.discord_helpers import World, manager


def _said(result: Any) -> str:
    return str(result.response.content)


async def test_the_season_channel_refusal_names_only_the_denied_permission(
        world: World, locales: dict[int, str]) -> None:
    boss, bot_user = manager(world), world.bot.user
    assert bot_user is not None
    no_send = world.guild.create_text_channel("no-send", overwrites={
        bot_user: discord.PermissionOverwrite(send_messages=False)})
    no = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=no_send)
    assert no.ephemeral and _said(no) == (
        f"I can't post season summaries in <#{no_send.id}>: I need the **Send Messages** "
        "permission there. Nothing was changed."), _said(no)
    hidden = world.guild.create_text_channel("hidden", overwrites={
        bot_user: discord.PermissionOverwrite(view_channel=False)})
    no = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=hidden)
    assert _said(no) == (
        f"I can't post season summaries in <#{hidden.id}>: I need the **View Channel** "
        "permission there. Nothing was changed."), _said(no)
    # Hidden and closed: both named, View Channel first.
    both = world.guild.create_text_channel("both", overwrites={
        bot_user: discord.PermissionOverwrite(view_channel=False, send_messages=False)})
    locales[boss.id] = "ru"
    no = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                          season_channel=both)
    assert "права **Просматривать каналы** и **Отправлять сообщения**" in _said(no), _said(no)
    assert "Встраивать ссылки" not in _said(no), _said(no)


async def test_a_match_channel_refusal_names_only_the_denied_permission(
        world: World) -> None:
    bot_user = world.bot.user
    assert bot_user is not None
    no_send = world.guild.create_text_channel("no-send-here", overwrites={
        bot_user: discord.PermissionOverwrite(send_messages=False)})
    r = await world.alice.slash(no_send, "umtali challenge", opponent=world.bob)
    assert r.ephemeral and _said(r) == (
        "I can't host a match in this channel: I need the **Send Messages** permission here. "
        "Ask a server admin, or try another channel."), _said(r)
    hidden = world.guild.create_text_channel("hidden-here", overwrites={
        bot_user: discord.PermissionOverwrite(view_channel=False)})
    r = await world.alice.slash(hidden, "umtali practice", level="easy")
    assert r.ephemeral and _said(r) == (
        "I can't host a match in this channel: I need the **View Channel** permission here. "
        "Ask a server admin, or try another channel."), _said(r)


async def test_the_threads_note_names_only_the_denied_permission(world: World) -> None:
    boss, bot_user = manager(world), world.bot.user
    assert bot_user is not None
    no_send = world.guild.create_text_channel("no-thread-posts-only", overwrites={
        bot_user: discord.PermissionOverwrite(send_messages_in_threads=False)})
    ok = await boss.slash(no_send, "umtali-admin settings", threads=True)
    assert ("Threads are on, but I can't make them in this channel: I need the **Send "
            "Messages in Threads** permission here.") in _said(ok), _said(ok)
