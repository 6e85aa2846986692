"""What the bot needs where a match is played, checked before anything is posted.

A slash command's answer needs no permission at all, so a challenge could be posted where the
bot cannot post the table afterwards: the match would start, unseen, and block both players.
"""

from __future__ import annotations

import discord

#: What the table and the announcements need, with the names Discord shows.
_POSTING = (("view_channel", "View Channel"), ("embed_links", "Embed Links"))
_THREAD = (("create_public_threads", "Create Public Threads"),
           ("send_messages_in_threads", "Send Messages in Threads"))


def _in_thread(interaction: discord.Interaction) -> bool:
    return isinstance(interaction.channel, discord.Thread)


def missing_here(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks to play a match in the interaction's channel."""
    perms = interaction.app_permissions
    send = ("send_messages_in_threads", "Send Messages in Threads") if _in_thread(interaction) \
        else ("send_messages", "Send Messages")
    return [label for name, label in (*_POSTING, send) if not getattr(perms, name)]


def can_make_thread(interaction: discord.Interaction) -> bool:
    """A thread can be made from the challenge and played in (else: the channel itself)."""
    perms = interaction.app_permissions
    return not _in_thread(interaction) and all(getattr(perms, name) for name, _ in _THREAD)


def refusal(missing: list[str]) -> str:
    names = " and ".join(f"**{m}**" for m in missing)
    return (f"I can't host a match in this channel: I need the {names} "
            f"permission{'s' if len(missing) > 1 else ''} here. Ask a server admin, or try "
            "another channel.")


CANCELLED = ("The session could not start: I can't post in this channel. Nothing was "
             "recorded; ask a server admin to check my permissions here.")
