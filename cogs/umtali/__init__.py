"""The Umtali cog: matches on Discord."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import discord
    from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    """Loads the cog. Its modules are imported here, not with the package: the computer's
    worker processes import ``cogs.umtali.thinking`` and the coach's work, which need none
    of discord.py or the cog (some 0.5 s of CPU a worker)."""
    from cogs.umtali.commands import setup as add_cogs

    await add_cogs(bot)


async def teardown(bot: discord.Client) -> None:
    """The extension unloaded, or reloaded: the coach closes (``coach.close_coach``), its
    reviews not sent left to the coach loaded next. (The bot's own close closed it first.)"""
    from cogs.umtali.coach import close_coach

    await close_coach(bot)


__all__ = ["setup", "teardown"]
