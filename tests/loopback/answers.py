"""The bot's answers to interactions: the callback, then follow-ups by the interaction's webhook.

Discord's rules that a bot can break are checked and the breaches kept in ``server.errors``
(answering twice, a follow-up before the callback, a first answer after Discord's 3 seconds),
so that the fixtures fail the test.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.loopback import replies, threads
from tests.loopback.records import EPHEMERAL, Call, Interaction

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord


#: Seconds from an interaction's creation within which Discord takes its first answer.
EXPIRES_AFTER = 3.0
#: An interaction reaching the bot later than this (a gateway outage's replay on RESUME) is
#: refused all the same once expired, but not held against the bot: it had next to no time.
#: Nor is one whose first answer a fault refused (a 5xx, a 429) and came again too late.
DELIVERED_WITHIN = 1.5


def _private(data: dict[str, Any]) -> bool:
    return bool(int(data.get("flags") or 0) & EPHEMERAL)


def age(record: Interaction, call: Call) -> float:
    """Seconds from the interaction's sending to the bot (Discord counts from its creation,
    just before) to the call's arrival here (not to its handling: a call a test's fault held
    is not late). Not from its id's time: a test may stamp that as a clock that disagrees
    with the bot's would (tests/test_clocks_late_moves.py)."""
    return call.came - record.sent_at


class Answers:
    """The REST handlers of ``/interactions/.../callback`` and ``/webhooks/{app}/{token}``."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server

    async def callback(self, call: Call) -> web.Response:
        """The first answer: a message (4), "thinking" (5), an update of the clicked one (7)
        or its promise (6), or a modal (9: kept as the callback, for ``acting.submit``)."""
        server = self.server
        record = server.interactions.get(call.match["token"])
        if record is None or str(record.id) != call.match["id"]:
            return replies.error(404, 10062, "Unknown interaction")
        record.callbacks += 1
        if record.callback_type is None and (record.expired or (server.expiring and (
                late := age(record, call)) > EXPIRES_AFTER)):
            # Discord forgets an interaction unanswered for 3 s: the member saw "This
            # interaction failed". A bug of the bot's (or a test's wanting it: ``late``).
            if not record.expired:
                record.expired = True
                if record.delivered_at - record.sent_at <= DELIVERED_WITHIN and \
                        call.path not in server.faulted:
                    server.late.append(record)
                    server.errors.append(f"interaction {record.id} first answered after "
                                         f"{late:.2f} s: expired (10062)")
                record.answered.set()
            return replies.error(404, 10062, "Unknown interaction")
        record.answered_at = record.answered_at or time.perf_counter()
        if record.callback_type is not None:
            if call.path not in server.answers_lost:
                # (Else the first answer's reply was lost: its client tried again.)
                server.errors.append(f"interaction {record.id} answered twice")
            return replies.error(400, 40060, "Interaction has already been acknowledged.")
        if (refused := threads.refused_answer(server, record)) is not None:
            record.answered.set()
            return refused
        kind = int(call.body["type"])
        data = dict(call.body.get("data") or {})
        if kind == 9 and record.payload["type"] == 5:
            server.errors.append(f"interaction {record.id}: a modal in answer to a modal")
            return replies.error(400, 50035, "Invalid Form Body")
        record.callback_type, record.callback = kind, data
        channel_id = int(record.payload["channel_id"])
        message: dict[str, Any] | None = None
        if kind in (4, 5):
            message = server.posts.new(channel_id, data if kind == 4 else {
                "flags": data.get("flags")}, public=not _private(data), files=call.files)
            message["interaction_token"] = record.token
        elif kind in (6, 7):
            # An update of the clicked message: now (7), or later by editing "@original" (6).
            source = record.payload.get("message") or {}
            message = server.messages.get(int(source.get("id", 0)))
            if message is None:
                return replies.error(404, 10008, "Unknown Message")
            if kind == 7:
                server.posts.edit(message, data, call.files)
        if message is not None:
            record.messages.append(message)
        record.answered.set()
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            resource["message"] = message
        return replies.json({"interaction": {
            "id": str(record.id), "type": record.payload["type"],
            "response_message_id": message["id"] if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": _private(data)},
            "resource": resource})

    async def followup(self, call: Call) -> web.Response:
        record = self._record(call)
        if record is None or record.expired:
            return replies.error(404, 10015, "Unknown Webhook")
        if record.callback_type is None:
            self.server.errors.append(f"follow-up to interaction {record.id} before its callback")
            return replies.error(400, 40060, "Interaction has not been acknowledged.")
        message = self.server.posts.new(int(record.payload["channel_id"]), call.body,
                                        public=not _private(call.body), files=call.files)
        record.followups.append(call.body)
        return replies.json(message)

    async def get(self, call: Call) -> web.Response:
        return replies.found(self._message(call))

    async def edit(self, call: Call) -> web.Response:
        return self.server.posts.answer_edit(self._message(call), call)

    async def delete(self, call: Call) -> web.Response:
        found = self._message(call)
        if found is None:
            return replies.error(404, 10008, "Unknown Message")
        log = self.server.log.get(int(found["channel_id"]), [])
        if int(found["id"]) in log:
            log.remove(int(found["id"]))
        return web.Response(status=204)

    def _record(self, call: Call) -> Interaction | None:
        """The interaction of the webhook's token, if the webhook is this bot's."""
        record = self.server.interactions.get(call.match["token"])
        if record is None or record.expired or call.match["app"] != str(self.server.app_id):
            return None
        return record

    def _message(self, call: Call) -> dict[str, Any] | None:
        """The message a webhook call names (``@original``: the callback's), if it is one of
        this interaction's answers."""
        record = self._record(call)
        if record is None:
            return None
        if call.match["message"] == "@original":
            if record.callback_type in (6, 7):
                return record.messages[0] if record.messages else None
            return next((m for m in record.messages
                         if m.get("interaction_token") == record.token), None)
        found = self.server.messages.get(int(call.match["message"]))
        return found if found is not None and (found in record.followups
                                               or found in record.messages) else None
