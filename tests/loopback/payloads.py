"""The JSON shapes discord.py reads: users, members, guilds, channels, messages, interactions.

Only what discord.py's parsers need (see discord/state.py, guild.py, message.py and
interactions.py); every field they index directly (``data['x']``) is present.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

EPOCH_MS = 1420070400000
#: Permissions sent for members and the bot: everything, so no check refuses for lack of them.
ALL_PERMISSIONS = str((1 << 50) - 1)
NOW = "2026-01-01T00:00:00+00:00"


class Snowflakes:
    """Increasing snowflakes, made from the clock like Discord's so their times make sense."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        return ((int(time.time() * 1000) - EPOCH_MS) << 22) | (next(self._counter) & 0x3FFFFF)


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None, "bot": bot, "public_flags": 0}


def member(u: dict[str, Any], nick: str | None = None) -> dict[str, Any]:
    """``nick``: the member's nickname on the server (the same on every server of the
    loopback's), else none."""
    return {"user": u, "roles": [], "joined_at": NOW, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "nick": nick, "avatar": None,
            "permissions": ALL_PERMISSIONS}


def text_channel(channel_id: int, guild_id: int, name: str) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": name,
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0}


def thread(thread_id: int, parent: dict[str, Any], name: str, owner_id: int) -> dict[str, Any]:
    return {"id": str(thread_id), "type": 11, "guild_id": parent["guild_id"],
            "parent_id": parent["id"], "name": name, "owner_id": str(owner_id),
            "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                "archive_timestamp": NOW, "locked": False}}


def dm_channel(channel_id: int, recipient: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 1, "recipients": [recipient],
            "last_message_id": None}


def guild(guild_id: int, name: str, owner_id: int, channels: list[dict[str, Any]],
          members: list[dict[str, Any]]) -> dict[str, Any]:
    everyone = {"id": str(guild_id), "name": "@everyone", "permissions": ALL_PERMISSIONS,
                "position": 0, "color": 0, "hoist": False, "managed": False,
                "mentionable": False, "flags": 0}
    return {"id": str(guild_id), "name": name, "icon": None, "owner_id": str(owner_id),
            "roles": [everyone], "channels": channels, "threads": [], "members": members,
            "member_count": len(members), "large": False, "unavailable": False,
            "features": [], "emojis": [], "stickers": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "joined_at": NOW, "mfa_level": 0, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "system_channel_flags": 0, "premium_tier": 0, "preferred_locale": "en-US",
            "nsfw_level": 0, "premium_progress_bar_enabled": False, "afk_timeout": 300}


def application(app_id: int, owner: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(app_id), "name": "Umtali", "icon": None, "description": "",
            "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
            "owner": owner, "summary": "", "verify_key": "0" * 64, "flags": 0, "team": None}


def message(message_id: int, channel_id: int, author: dict[str, Any], body: dict[str, Any],
            guild_id: int | None) -> dict[str, Any]:
    """A message as Discord returns it, made from what the bot sent."""
    out: dict[str, Any] = {
        "id": str(message_id), "channel_id": str(channel_id), "author": author, "type": 0,
        "content": body.get("content") or "", "embeds": body.get("embeds") or [],
        "components": body.get("components") or [], "attachments": [], "timestamp": NOW,
        "edited_timestamp": None, "flags": int(body.get("flags") or 0), "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
    }
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
    return out


def edit(message: dict[str, Any], body: dict[str, Any]) -> None:
    """Apply an edit: the keys the bot sent replace the message's (``None`` clears a list)."""
    for key in ("content", "embeds", "components", "flags"):
        if key in body:
            value = body[key]
            message[key] = value if value is not None else ("" if key == "content" else [])
    message["edited_timestamp"] = NOW
