"""Which missing permissions a refusal names: those the channel itself denies the bot, not
those Discord only implies from another one denied (without View Channel the bot has nothing
there; without Send Messages, no Embed Links nor Attach Files). A channel with Send Messages
alone denied was answered "I need Send Messages and Embed Links": an admin granting both
would open more than needed, or look for a denial that is not there."""

from __future__ import annotations

from collections.abc import Iterable

import discord


def own_permissions(channel: object, me: discord.Member | None) -> discord.Permissions | None:
    """The bot's permissions in ``channel`` from its roles and the channel's overwrites alone,
    before the implied denials (a thread's: its channel's, as Discord reckons them); None when
    not known here (an uncached channel, no member for the bot)."""
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if me is None or not isinstance(channel, discord.abc.GuildChannel):
        return None
    try:
        return discord.abc.GuildChannel.permissions_for(channel, me)
    except (AttributeError, discord.ClientException):
        return None  # (a channel of another server, half known: the full list then)


def lacking(perms: discord.Permissions, own: discord.Permissions | None,
            needed: Iterable[tuple[str, str]]) -> list[str]:
    """The labels of ``needed`` (name, label) that ``perms`` lacks, less those that ``own``
    grants (lacking only as implied: they come with the others). Never empty when something
    is lacking: the whole list if ``own`` is unknown or disagrees."""
    missing = [(name, label) for name, label in needed if not getattr(perms, name)]
    if own is None:
        return [label for _, label in missing]
    named = [label for name, label in missing if not getattr(own, name)]
    return named or [label for _, label in missing]
