"""The Umtali cog: matches on Discord."""

import discord

from cogs.umtali.commands import setup


async def teardown(bot: discord.Client) -> None:
    """The extension unloaded, or reloaded: the coach closes (``coach.close_coach``), its
    reviews not sent left to the coach loaded next. (The bot's own close closed it first.)"""
    from cogs.umtali.coach import close_coach

    await close_coach(bot)


__all__ = ["setup", "teardown"]
