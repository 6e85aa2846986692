"""Members acting: the interactions a member's Discord client sends (slash commands, clicks).

Each is built as Discord delivers it (INTERACTION_CREATE, with the member, channel and locales),
recorded by its token so that the bot's answers find it, and sent on the gateway; the caller
waits until the bot answered.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING, Any

from tests.loopback import options as o
from tests.loopback import payloads as p
from tests.loopback.records import Interaction

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord

#: Interaction types: a slash command, a click on a component, a question for suggestions
#: (autocomplete), a modal submitted.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5


async def slash(server: LoopbackDiscord, user_id: int, channel_id: int, command: str,
                options: dict[str, Any] | None, timeout: float) -> Interaction:
    """``/umtali challenge`` and the like, checked against the synced commands."""
    group, _, name = command.partition(" ")
    record = _base(server, APPLICATION_COMMAND, user_id, channel_id)
    opts, resolved = o.encode(options or {}, server.users, server.members,
                                server.nicks)
    synced = next((c for c in server.commands if c.get("name") == group), None)
    if synced is not None:
        o.check(synced, name, opts)
    data: dict[str, Any] = {
        "id": synced["id"] if synced else str(server.snowflake()), "name": group, "type": 1,
        "options": [{"name": name, "type": 1, "options": opts}] if name else opts,
    }
    if resolved["users"]:
        data["resolved"] = resolved
    record.payload["data"] = data
    return await _send(server, record, timeout)


async def autocomplete(server: LoopbackDiscord, user_id: int, channel_id: int, command: str,
                       option: str, typed: str, timeout: float) -> Interaction:
    """The member typing ``typed`` in ``command``'s string option ``option``: Discord asks for
    suggestions (answered with callback 8, its ``choices``)."""
    group, _, name = command.partition(" ")
    record = _base(server, AUTOCOMPLETE, user_id, channel_id)
    synced = next((c for c in server.commands if c.get("name") == group), None)
    focused = [{"name": option, "type": 3, "value": typed, "focused": True}]
    record.payload["data"] = {
        "id": synced["id"] if synced else str(server.snowflake()), "name": group, "type": 1,
        "options": [{"name": name, "type": 1, "options": focused}] if name else focused,
    }
    return await _send(server, record, timeout)


async def click(server: LoopbackDiscord, user_id: int, message: dict[str, Any],
                custom_id: str, values: list[str] | None, timeout: float) -> Interaction:
    """A click on a button of ``message`` (or a choice in its menu, with ``values``)."""
    on = [c.get("custom_id") for row in message.get("components", [])
          for c in row.get("components", [])]
    if custom_id not in on:
        raise o.RefusedByClient(f"no component {custom_id!r} on the message")
    record = _base(server, MESSAGE_COMPONENT, user_id, int(message["channel_id"]))
    record.payload["message"] = message
    record.payload["data"] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        record.payload["data"] = {"custom_id": custom_id, "component_type": 3,
                                  "values": values}
    return await _send(server, record, timeout)


async def submit(server: LoopbackDiscord, user_id: int, shown: Interaction,
                 values: dict[str, str], timeout: float) -> Interaction:
    """The modal the bot answered ``shown`` with (callback 9) filled in with ``values`` (by
    its text inputs' custom ids; an input left out is sent empty) and submitted by the member
    it was shown to, from the message ``shown`` was on, as Discord sends it."""
    if shown.callback_type != 9:
        raise o.RefusedByClient(f"interaction {shown.id} was answered with no modal")
    shown_to = (shown.payload.get("member") or {}).get("user") or shown.payload.get("user")
    if (shown_to or {}).get("id") != str(user_id):
        raise o.RefusedByClient("a modal is submitted by the member it was shown to")
    inputs = [c for row in shown.callback.get("components", [])
              for c in row.get("components", [row.get("component") or {}]) if c.get("type") == 4]
    unknown = set(values) - {c["custom_id"] for c in inputs}
    if unknown:
        raise o.RefusedByClient(f"no text input {sorted(unknown)[0]!r} in the modal")
    for c in inputs:
        if len(values.get(c["custom_id"], "")) > int(c.get("max_length", 4000)):
            raise o.RefusedByClient(f"{c['custom_id']!r} is longer than its max_length")
    record = _base(server, MODAL_SUBMIT, user_id, int(shown.payload["channel_id"]))
    if "message" in shown.payload:
        record.payload["message"] = shown.payload["message"]
    record.payload["data"] = {"custom_id": shown.callback["custom_id"], "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": c["custom_id"],
                                    "value": values.get(c["custom_id"], "")}]}
        for c in inputs]}
    return await _send(server, record, timeout)


def _base(server: LoopbackDiscord, kind: int, user_id: int, channel_id: int) -> Interaction:
    """What every interaction carries: who, where, in which language; and its record."""
    interaction_id = server.snowflake()
    token = f"tok{interaction_id}{secrets.token_hex(4)}"
    channel = server.channels[channel_id]
    guild_id = int(channel.get("guild_id") or server.guild_id)
    payload: dict[str, Any] = {
        "id": str(interaction_id), "application_id": str(server.app_id), "type": kind,
        "token": token, "version": 1, "channel_id": str(channel_id), "channel": channel,
        "locale": server.locales.get(user_id, "en-US"), "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "attachment_size_limit": 8 * 1024 * 1024,
        "app_permissions": p.ALL_PERMISSIONS,
    }
    if channel["type"] == 1:
        payload["user"] = server.users[user_id]
        payload["context"] = 1
    else:
        payload["guild_id"] = str(guild_id)
        payload["guild_locale"] = server.locale_of(guild_id)
        payload["member"] = p.member(server.users[user_id], server.nicks.get(user_id))
        if user_id in server.member_permissions:
            payload["member"]["permissions"] = str(server.member_permissions[user_id])
        payload["context"] = 0
    record = Interaction(interaction_id, token, payload)
    server.interactions[token] = record
    return record


async def _send(server: LoopbackDiscord, record: Interaction, timeout: float) -> Interaction:
    record.sent_at = time.perf_counter()
    await server.dispatch("INTERACTION_CREATE", record.payload)
    await asyncio.wait_for(record.answered.wait(), timeout)
    return record
