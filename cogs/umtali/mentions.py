"""Who a message may ping: nobody by default, and only the members it names on purpose.

discord.py turns every field left unset in ``AllowedMentions`` into "allowed", so a message
sent with only ``users`` set to True may still ping @everyone and any role its text holds.
"""

from __future__ import annotations

import discord

from umtali.i18n import Tr

#: The client's default: text alone never pings anyone.
NO_MENTIONS = discord.AllowedMentions.none()


def only(*user_ids: int) -> discord.AllowedMentions:
    """Ping exactly these members, and nobody else whatever the text says."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=i) for i in user_ids])


def ping(user_id: int) -> str:
    """A member's mention, as a message's text holds it (it pings only if allowed)."""
    return f"<@{user_id}>"


def command(tr: Tr, *path: str) -> str:
    """A slash command as the reader's client shows it (``/umtali resign``, or its names in
    their language): the names come with the command tree (``cogs.umtali.translator``)."""
    return "/" + " ".join(tr.ctx(_COMMAND, name) for name in path)


#: The context of a command's name in the catalogues (a name is not a word of a sentence).
_COMMAND = "command"
