"""``/umtali-admin settings`` with threads on, in a channel where the bot cannot make threads:
the answer says so, and that the matches started there are played in the channel itself
(before: "- Threads: on", and every match there silently in the channel). SimCord, a real SQLite
file."""

from __future__ import annotations

from typing import Any

import discord

from tests.discord_helpers import World, manager

NOTE = ("Threads are on, but I can't make them in this channel: I need the **Create Public "
        "Threads** permission here. Matches started here are played in the channel itself.")



def _said(result: Any) -> str:
    return str(result.response.content)


async def test_threads_on_where_the_bot_cannot_make_them_is_said(
        world: World, locales: dict[int, str]) -> None:
    boss, bot_user = manager(world), world.bot.user
    assert bot_user is not None
    closed = world.guild.create_text_channel("no-threads", overwrites={
        bot_user: discord.PermissionOverwrite(create_public_threads=False)})
    ok = await boss.slash(closed, "umtali-admin settings", threads=True)
    assert ok.ephemeral and "- Threads: on" in _said(ok) and NOTE in _said(ok)
    # Where it can, or with threads off, nothing more is said.
    ok = await boss.slash(world.channel, "umtali-admin settings", threads=True)
    assert "- Threads: on" in _said(ok) and "Threads are on, but" not in _said(ok)
    ok = await boss.slash(closed, "umtali-admin settings", threads=False)
    assert "- Threads: off" in _said(ok) and "Threads are on, but" not in _said(ok)
    # Both permissions missing; in Russian, with Discord's own names for them.
    both = world.guild.create_text_channel("no-thread-posts", overwrites={
        bot_user: discord.PermissionOverwrite(create_public_threads=False,
                                              send_messages_in_threads=False)})
    locales[boss.id] = "ru"
    ok = await boss.slash(both, "umtali-admin settings", threads=True)
    assert ("Ветки включены, но в этом канале я не могу их создавать: мне здесь нужны права "
            "**Создавать публичные ветки** и **Отправлять сообщения в ветках**. Матчи, начатые "
            "здесь, идут в самом канале.") in _said(ok)
    assert world.bot.matches is not None
    assert (await world.bot.matches.store.guild_settings(world.guild.id)).threads
