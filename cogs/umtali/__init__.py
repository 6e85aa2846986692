"""The Umtali cog: matches on Discord."""

from cogs.umtali.commands import setup

__all__ = ["setup"]
