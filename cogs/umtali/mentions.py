"""Who a message may ping: nobody by default, and only the members it names on purpose.

discord.py turns every field left unset in ``AllowedMentions`` into "allowed", so a message
sent with only ``users`` set to True may still ping @everyone and any role its text holds.
"""

from __future__ import annotations

import discord

#: The client's default: text alone never pings anyone.
NO_MENTIONS = discord.AllowedMentions.none()


def only(*user_ids: int) -> discord.AllowedMentions:
    """Ping exactly these members, and nobody else whatever the text says."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=i) for i in user_ids])
