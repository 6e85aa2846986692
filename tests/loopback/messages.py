"""The bot's messages: posted, edited and read over REST, and waited for by tests.

Every way a message comes to be or changes (a channel post, an interaction's answer, a
follow-up, an edit by either route) goes through ``Posts.new`` and ``Posts.edit``, so its
attachments are kept and checked, and the tests waiting on it are woken, the same way each time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.loopback import payloads as p
from tests.loopback import replies, threads
from tests.loopback.attachments import Files, attach, dangling
from tests.loopback.records import Call

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord

Check = Callable[[dict[str, Any]], bool]


class Posts:
    """Makes and changes the server's messages (kept in ``server.messages`` and ``.log``)."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server
        #: Who waits for a message of a channel to be posted or edited: (check, future).
        self._watchers: dict[int, list[tuple[Check, asyncio.Future[dict[str, Any]]]]] = {}
        #: The bot's messages by the nonce they were sent with (Discord's enforce_nonce).
        self.nonces: dict[str, int] = {}

    # -- for tests ------------------------------------------------------------------------

    async def message_in(self, channel_id: int, check: Check,
                         timeout: float) -> dict[str, Any]:
        """The newest message of the channel that passes ``check``, waiting until one is
        posted or edited so that it does (no polling: load benches wait on thousands)."""
        earlier: dict[str, Any]
        for earlier in reversed(self.server.channel_messages(channel_id)):
            if check(earlier):
                return earlier
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        watchers = self._watchers.setdefault(channel_id, [])
        watchers.append((check, future))
        try:
            message: dict[str, Any] = await asyncio.wait_for(future, timeout)
        finally:
            watchers.remove((check, future))
        return message

    def attachment(self, message: dict[str, Any], filename: str) -> bytes | None:
        """The bytes of the message's attachment named ``filename``, if it carries one."""
        for a in message.get("attachments") or []:
            if a["filename"] == filename:
                return self.server.uploads[int(a["id"])]
        return None

    # -- making and changing --------------------------------------------------------------

    def new(self, channel_id: int, body: dict[str, Any],
            public: bool = True, files: Files | None = None) -> dict[str, Any]:
        """A message the bot sent; ``public`` ones are in the channel's log (an ephemeral one
        is seen only by its member, so it is kept by id alone)."""
        server = self.server
        channel = server.channels[channel_id]
        guild = int(channel["guild_id"]) if "guild_id" in channel else None
        message = p.message(server.snowflake(), channel_id, server.bot_user, body, guild)
        attach(message, body, files or [], server.uploads, server.snowflake, edit=False)
        self._check_files(message)
        server.messages[int(message["id"])] = message
        if public:
            server.log[channel_id].append(int(message["id"]))
            self._changed(message)
        return message

    def edit(self, message: dict[str, Any], body: Any, files: Files | None = None) -> None:
        """Apply an edit the bot sent: its text, embeds, components and files."""
        p.edit(message, body)
        attach(message, body, files or [], self.server.uploads, self.server.snowflake,
               edit=True)
        self._check_files(message)
        self._changed(message)

    def _check_files(self, message: dict[str, Any]) -> None:
        if missing := dangling(message):
            self.server.errors.append(f"message {message['id']} shows {missing} without the file")

    def _changed(self, message: dict[str, Any]) -> None:
        for check, future in self._watchers.get(int(message["channel_id"]), ()):
            if not future.done() and check(message):
                future.set_result(message)

    # -- REST -----------------------------------------------------------------------------

    async def post(self, call: Call) -> web.Response:
        channel_id = int(call.match["channel"])
        channel = self.server.channels.get(channel_id)
        if channel is None:
            return replies.error(404, 10003, "Unknown Channel")
        if channel["type"] == 1 and int(channel["recipients"][0]["id"]) in self.server.refused_dms:
            return replies.error(403, 50007, "Cannot send messages to this user")
        if (refused := threads.refusal(self.server, channel, edit=False)) is not None:
            return refused
        nonce = call.body.get("nonce") if isinstance(call.body, dict) and \
            call.body.get("enforce_nonce") else None
        if nonce is not None and (first := self.nonces.get(str(nonce))) in self.server.messages:
            # Discord's enforce_nonce: the bot's message with that nonce (within minutes: a
            # test's length), given back, and none created.
            call.given_back = True
            return replies.json(self.server.messages[first])
        await threads.sent_in(self.server, channel)
        message = self.new(channel_id, call.body, files=call.files)
        if nonce is not None:
            self.nonces[str(nonce)] = int(message["id"])
        return replies.json(message)

    def _message(self, call: Call) -> dict[str, Any] | None:
        found = self.server.messages.get(int(call.match["message"]))
        if found is None or int(found["channel_id"]) != int(call.match["channel"]):
            return None
        return found

    async def get(self, call: Call) -> web.Response:
        return replies.found(self._message(call))

    async def history(self, call: Call) -> web.Response:
        """A channel's messages, newest first, at most ``limit``, before or after an id (as
        ``channel.history()`` asks: the bot looks through a DM for a panel it never saved)."""
        channel_id = int(call.match["channel"])
        if channel_id not in self.server.channels:
            return replies.error(404, 10003, "Unknown Channel")
        limit = max(1, min(int(call.query.get("limit", 50)), 100))
        found = [m for m in self.server.channel_messages(channel_id)]
        if "before" in call.query:
            found = [m for m in found if int(m["id"]) < int(call.query["before"])]
        if "after" in call.query:
            found = [m for m in found if int(m["id"]) > int(call.query["after"])][:limit]
        return replies.json(list(reversed(found[-limit:])))

    async def patch(self, call: Call) -> web.Response:
        found = self._message(call)
        channel = self.server.channels.get(int(call.match["channel"]))
        if found is not None and channel is not None and (
                refused := threads.refusal(self.server, channel, edit=True)) is not None:
            return refused
        if found is not None and channel is not None and channel["type"] == 1 and \
                self.server.dm_edits_refused and \
                int(channel["recipients"][0]["id"]) in self.server.refused_dms:
            return replies.error(403, 50007, "Cannot send messages to this user")
        return self.answer_edit(found, call)

    async def delete(self, call: Call) -> web.Response:
        """The bot deletes one of its messages: gone from its channel (an unknown one: 404)."""
        found = self._message(call)
        if found is None:
            return replies.error(404, 10008, "Unknown Message")
        channel_id = int(found["channel_id"])
        del self.server.messages[int(found["id"])]
        with contextlib.suppress(ValueError):
            self.server.log[channel_id].remove(int(found["id"]))
        return web.Response(status=204)

    def answer_edit(self, found: dict[str, Any] | None, call: Call) -> web.Response:
        """Edit the message the call names, if there is one, and answer with it."""
        if found is None:
            return replies.found(None)
        self.edit(found, call.body, call.files)
        return replies.json(found)

    async def start_thread(self, call: Call) -> web.Response:
        server = self.server
        parent = server.channels.get(int(call.match["channel"]))
        message = self._message(call)
        if parent is None or message is None:
            return replies.error(404, 10008, "Unknown Message")
        # A thread made from a message has the message's id.
        duration = call.body.get("auto_archive_duration", 1440)
        if duration not in threads.DURATIONS:
            return replies.error(400, 50035, "Invalid Form Body: auto_archive_duration")
        data = p.thread(int(message["id"]), parent, str(call.body.get("name", "")),
                        server.app_id)
        data["thread_metadata"]["auto_archive_duration"] = duration
        server.channels[int(data["id"])] = data
        server.log[int(data["id"])] = []
        await server.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return replies.json(data)
