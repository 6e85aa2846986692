"""The permissions the bot lacks, listed as a sentence lists them: "A, B and C" (before: "A and
B and C"), in English and Russian. SimCord, a real SQLite file."""

from __future__ import annotations

import discord

from tests.discord_helpers import World


async def test_three_missing_permissions_are_listed_as_a_sentence(
        world: World, locales: dict[int, str]) -> None:
    bot_user = world.bot.user
    assert bot_user is not None and world.bot.matches is not None
    world.bot.matches.pictures = True
    quiet = world.guild.create_text_channel("quiet", overwrites={
        bot_user: discord.PermissionOverwrite(send_messages=False, embed_links=False,
                                              attach_files=False)})
    refused = await world.alice.slash(quiet, "umtali practice")
    assert refused.ephemeral
    assert "I need the **Embed Links**, **Send Messages** and **Attach Files** permissions " \
        "here." in str(refused.response.content)
    locales[world.alice.id] = "ru"
    refused = await world.alice.slash(quiet, "umtali practice")
    assert refused.ephemeral
    assert "нужны права **Встраивать ссылки**, **Отправлять сообщения** и **Прикреплять " \
        "файлы**." in str(refused.response.content)
