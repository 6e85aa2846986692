"""``/umtali-admin settings`` with pictures on, in a channel where the bot may not attach
files: the answer says so, that no new match can start there, and that the tables of matches
in play there stay text (before: "- Pictures: on" alone, while every challenge there was then
refused for want of Attach Files: review121). SimCord, a real SQLite file."""

from __future__ import annotations

from typing import Any

import discord

from tests.discord_helpers import World, manager

NOTE = ("Pictures are on, but I can't attach files in this channel: I need the **Attach "
        "Files** permission here. Until I have it, no new match can start here, and the "
        "tables of matches in play here stay text.")



def _said(result: Any) -> str:
    return str(result.response.content)


async def test_pictures_on_where_the_bot_cannot_attach_them_is_said(
        world: World, locales: dict[int, str]) -> None:
    boss, bot_user = manager(world), world.bot.user
    assert bot_user is not None
    quiet = world.guild.create_text_channel("no-files", overwrites={
        bot_user: discord.PermissionOverwrite(attach_files=False)})
    ok = await boss.slash(quiet, "umtali-admin settings", pictures=False)
    assert "- Pictures: off" in _said(ok) and "Pictures are on, but" not in _said(ok)
    ok = await boss.slash(quiet, "umtali-admin settings", pictures=True)
    assert ok.ephemeral and "- Pictures: on" in _said(ok) and NOTE in _said(ok), _said(ok)
    # Said whenever pictures are on there, as the threads' note is: any other setting changed.
    ok = await boss.slash(quiet, "umtali-admin settings", optional_melding=True)
    assert NOTE in _said(ok), _said(ok)
    # Where it can attach, nothing more is said.
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=True)
    assert "- Pictures: on" in _said(ok) and "Pictures are on, but" not in _said(ok)
    # In Russian, with Discord's own name for the permission.
    locales[boss.id] = "ru"
    ok = await boss.slash(quiet, "umtali-admin settings", pictures=True)
    assert ("Картинки включены, но в этом канале я не могу прикреплять файлы: мне здесь нужно "
            "право **Прикреплять файлы**. Пока его нет, новые матчи здесь не начнутся, а "
            "столы идущих здесь матчей останутся текстом.") in _said(ok), _said(ok)
    assert world.bot.matches is not None
    assert (await world.bot.matches.store.guild_settings(world.guild.id)).pictures


async def test_no_note_where_the_bot_shows_no_pictures_at_all(world: World) -> None:
    """Pictures turned off for the whole bot (its operator's setting): nothing is attached
    anywhere, and nothing missing is said."""
    boss, bot_user = manager(world), world.bot.user
    assert bot_user is not None and world.bot.matches is not None
    world.bot.matches.pictures = False
    quiet = world.guild.create_text_channel("no-files", overwrites={
        bot_user: discord.PermissionOverwrite(attach_files=False)})
    ok = await boss.slash(quiet, "umtali-admin settings", pictures=True)
    assert "Pictures are on, but" not in _said(ok), _said(ok)
