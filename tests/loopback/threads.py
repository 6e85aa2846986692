"""Threads as Discord keeps them: archived (by time or by hand) and locked.

What Discord does (its "Threads" topic, and the errors it answers): a message sent in an
archived thread that is not locked unarchives it (a THREAD_UPDATE follows); a message edited
in an archived thread is refused (400, 50083); in a locked thread a member who may not manage
threads (this bot, unless ``server.bot_manages_threads``) may neither send nor edit (403:
50083 if it is archived too, 160005 if not), nor unarchive it (403, 50013). The thread's
creator may unarchive it, and set its ``auto_archive_duration``, with ``PATCH /channels/{id}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.loopback import payloads as p
from tests.loopback import replies
from tests.loopback.records import Call, Interaction

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord

ARCHIVED, LOCKED, MISSING_PERMISSIONS = 50083, 160005, 50013
#: The Manage Threads permission bit.
MANAGE_THREADS = 1 << 34
#: The durations Discord accepts, in minutes.
DURATIONS = (60, 1440, 4320, 10080)


def _meta(channel: dict[str, Any]) -> dict[str, Any] | None:
    meta = channel.get("thread_metadata")
    return meta if isinstance(meta, dict) else None


def refusal(server: LoopbackDiscord, channel: dict[str, Any], *,
            edit: bool) -> web.Response | None:
    """Discord's refusal of the bot's post (or, with ``edit``, its edit of a message) in
    ``channel``; None if it may."""
    meta = _meta(channel)
    if meta is None:
        return None
    if meta["locked"] and not server.bot_manages_threads:
        if meta["archived"]:
            return replies.error(403, ARCHIVED, "Thread is archived")
        return replies.error(403, LOCKED, "Thread is locked")
    if meta["archived"] and edit:
        return replies.error(400, ARCHIVED, "Thread is archived")
    return None


def refused_answer(server: LoopbackDiscord, record: Interaction) -> web.Response | None:
    """Discord's refusal of any answer to an interaction from a thread locked and archived,
    by a member who may not bring it back (discord/discord-api-docs#5517: a desktop client
    sends the interaction all the same)."""
    channel = server.channels.get(int(record.payload["channel_id"]))
    meta = None if channel is None else _meta(channel)
    member = record.payload.get("member") or {}
    if meta is None or not (meta["locked"] and meta["archived"]) or \
            int(member.get("permissions") or 0) & MANAGE_THREADS:
        return None
    return replies.error(403, ARCHIVED, "Thread is archived")


async def sent_in(server: LoopbackDiscord, channel: dict[str, Any]) -> None:
    """A message the bot may send was sent in ``channel``: an archived thread comes back."""
    meta = _meta(channel)
    if meta is not None and meta["archived"]:
        await set_state(server, int(channel["id"]), archived=False)


async def set_state(server: LoopbackDiscord, thread_id: int, **changes: Any) -> None:
    """The thread archived, unarchived, locked or unlocked (by time, by a moderator or by the
    bot), and the bot told by a THREAD_UPDATE."""
    thread = server.channels[thread_id]
    meta = thread["thread_metadata"]
    meta.update(changes)
    if "archived" in changes or "auto_archive_duration" in changes:
        meta["archive_timestamp"] = p.NOW
    server.thread_changes.append((thread_id, dict(changes)))
    await server.dispatch("THREAD_UPDATE", thread)


async def edit_channel(server: LoopbackDiscord, call: Call) -> web.Response:
    """``PATCH /channels/{id}``: only a thread's ``archived`` and ``auto_archive_duration``
    (all this bot may change)."""
    channel = server.channels.get(int(call.match["channel"]))
    if channel is None:
        return replies.error(404, 10003, "Unknown Channel")
    meta = _meta(channel)
    body = call.body if isinstance(call.body, dict) else {}
    known = {"archived", "auto_archive_duration"}
    if meta is None or not set(body) <= known or not body:
        server.errors.append(f"PATCH /channels/{channel['id']} with {sorted(body)}: not "
                             "modelled")
        return replies.error(400, 50035, "Invalid Form Body")
    if "auto_archive_duration" in body and body["auto_archive_duration"] not in DURATIONS:
        return replies.error(400, 50035, "Invalid Form Body: auto_archive_duration")
    if meta["locked"] and not server.bot_manages_threads:
        return replies.error(403, MISSING_PERMISSIONS, "Missing Permissions")
    if meta["archived"] and body.get("archived") is not False:
        return replies.error(400, ARCHIVED, "Thread is archived")
    await set_state(server, int(channel["id"]), **body)
    return replies.json(channel)


async def delete_channel(server: LoopbackDiscord, call: Call) -> web.Response:
    """``DELETE /channels/{id}``: a thread, which Discord lets only a member who may manage
    threads delete (``server.bot_manages_threads``); gone, the bot is told by a THREAD_DELETE.
    Any other channel: not this bot's to delete (not modelled)."""
    channel = server.channels.get(int(call.match["channel"]))
    if channel is None:
        return replies.error(404, 10003, "Unknown Channel")
    if _meta(channel) is None:
        server.errors.append(f"DELETE /channels/{channel['id']}: not a thread, not modelled")
        return replies.error(403, MISSING_PERMISSIONS, "Missing Permissions")
    if not server.bot_manages_threads:
        return replies.error(403, MISSING_PERMISSIONS, "Missing Permissions")
    del server.channels[int(channel["id"])]
    server.thread_changes.append((int(channel["id"]), {"deleted": True}))
    await server.dispatch("THREAD_DELETE", {key: channel[key] for key in
                                            ("id", "guild_id", "parent_id", "type")})
    return replies.json(channel)
