"""The link that adds the bot to a server, with the permissions it asks for (README, "Creating
a Discord application and bot token"), logged once the bot is ready.

What a match's posts need (``permissions.missing_here``), the thread it is played in, and
Read Message History (a season summary's look for one posted already). Manage Threads is not
asked: it only lets the bot delete a thread it made for a match that did not start (else
archived), play in a locked thread or in a private one it was not added to.
"""

from __future__ import annotations

from typing import Final

import discord

INVITE_PERMISSIONS: Final = discord.Permissions(
    view_channel=True, send_messages=True, create_public_threads=True,
    send_messages_in_threads=True, embed_links=True, attach_files=True,
    read_message_history=True)

#: Slash commands need ``applications.commands`` beside ``bot``.
INVITE_SCOPES: Final = ("bot", "applications.commands")


def invite_url(client_id: int) -> str:
    """The invite link of the application ``client_id``."""
    return discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS,
                                   scopes=INVITE_SCOPES)
