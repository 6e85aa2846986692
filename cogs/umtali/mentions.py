"""Who a message may ping: nobody by default, and at most the members it means to.

discord.py fills the fields of ``AllowedMentions`` left unset with True (everyone and roles
included), so every field is given here.
"""

from __future__ import annotations

import discord

#: The bot's default: a message pings nobody, whatever its text holds.
NO_MENTIONS = discord.AllowedMentions.none()


def only(*user_ids: int) -> discord.AllowedMentions:
    """Ping these members and nobody else: no @everyone, no role, no reply ping."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in user_ids])
