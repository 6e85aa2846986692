"""The loopback Discord's REST API: which routes it knows, and what every call goes through.

Every call is logged in ``server.calls``, then meets, in Discord's order: the global rate
limit (when a test sets one), the faults a test asked for, the size limits, and only then its
route's handler. A call to a route this server does not know is answered 404 and kept in
``server.unknown``, so that it fails the test instead of being silently absorbed.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.loopback import limits, replies, threads
from tests.loopback import payloads as p
from tests.loopback.attachments import read_body
from tests.loopback.records import Call

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord

API = "/api/v10"
Handler = Callable[[Call], Awaitable[web.Response]]


class Rest:
    """Routes REST calls to their handlers: the world's here, messages' and answers' in
    ``server.posts`` and ``server.answers``."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server
        #: Set by ``server.release()``: held calls end.
        self.released = asyncio.Event()
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = [
            (m, re.compile(f"^{r}$"), h) for m, r, h in self._route_table()]

    def _route_table(self) -> list[tuple[str, str, Handler]]:
        server = self.server
        posts, answers = server.posts, server.answers
        snow = r"(?P<{}>[0-9]+)"
        ch, msg = snow.format("channel"), snow.format("message")
        hook = r"/webhooks/(?P<app>[0-9]+)/(?P<token>[^/]+)"
        return [
            ("GET", "/gateway/bot", self._gateway_bot),
            ("GET", "/users/@me", self._me),
            ("GET", "/users/" + snow.format("user"), self._get_user),
            ("GET", "/guilds/[0-9]+/members/" + snow.format("user"), self._get_member),
            ("GET", "/guilds/" + snow.format("guild"), self._get_guild),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/oauth2/applications/@me", self._app_info),
            ("GET", "/applications/[0-9]+/commands", self._get_commands),
            ("PUT", "/applications/[0-9]+/commands", self._put_commands),
            ("PUT", "/applications/[0-9]+/guilds/(?P<guild>[0-9]+)/commands",
             self._put_guild_commands),
            ("POST", f"/channels/{ch}/messages", posts.post),
            ("GET", f"/channels/{ch}/messages/{msg}", posts.get),
            ("GET", f"/channels/{ch}/messages", posts.history),
            ("PATCH", f"/channels/{ch}/messages/{msg}", posts.patch),
            ("DELETE", f"/channels/{ch}/messages/{msg}", posts.delete),
            ("POST", f"/channels/{ch}/messages/{msg}/threads", posts.start_thread),
            ("GET", f"/channels/{ch}", self._get_channel),
            ("PATCH", f"/channels/{ch}", self._edit_channel),
            ("DELETE", f"/channels/{ch}", self._delete_channel),
            ("POST", r"/interactions/(?P<id>[0-9]+)/(?P<token>[^/]+)/callback",
             answers.callback),
            ("POST", hook, answers.followup),
            ("GET", hook + "/messages/(?P<message>@original|[0-9]+)", answers.get),
            # Through the server: a subclass may note these (see LoopbackDiscord._hook_edit).
            ("PATCH", hook + "/messages/(?P<message>@original|[0-9]+)", server._hook_edit),
            ("DELETE", hook + "/messages/(?P<message>@original|[0-9]+)", server._hook_delete),
        ]

    async def handle(self, request: web.Request) -> web.Response:
        """Every call under ``/api/v10``."""
        server = self.server
        path = "/" + request.match_info["tail"]
        try:
            body, files = await read_body(request)
        except ConnectionResetError:
            # The bot killed mid-upload (the soak's faults): nobody left to answer, nothing
            # to log (aiohttp's traceback read as the bot's error).
            return web.Response(status=400)
        call = Call(request.method, path, dict(request.query), body, files=files,
                    user_agent=request.headers.get("User-Agent", ""))
        server.calls.append(call)
        if server.global_limit is not None and (
                wait := server.global_limit.retry_after(path)) is not None:
            call.status = 429
            return replies.json({"message": "You are being rate limited.", "retry_after": wait,
                                 "global": True}, 429, {"Retry-After": f"{wait:.3f}",
                                                        "X-RateLimit-Global": "true",
                                                        "X-RateLimit-Scope": "global"})
        if (faulted := await self._fault(call)) is not None:
            return faulted
        sent = call.body.get("data") if path.endswith("/callback") and isinstance(
            call.body, dict) else call.body
        if request.method in ("POST", "PATCH") and (refused := limits.problems(sent)):
            call.status = 400
            return replies.error(400, 50035, "Invalid Form Body: " + "; ".join(refused))
        return await self._carry_out(call)

    async def _carry_out(self, call: Call) -> web.Response:
        """The call's route handles it."""
        for method, pattern, handler in self._routes:
            found = pattern.match(call.path)
            if found and method == call.method:
                call.match = {k: v for k, v in found.groupdict().items() if v is not None}
                response = await handler(call)
                call.status = response.status
                return response
        self.server.unknown.append(f"{call.method} {call.path}")
        call.status = 404
        return replies.json({"message": "404: Not Found (loopback: unknown route)", "code": 0},
                            404)

    async def _fault(self, call: Call) -> web.Response | None:
        """The error the first fault this call matches answers it with; None to go on (no
        fault, or a delay that has passed)."""
        for fault in self.server.faults:
            if fault.hits < fault.times and fault.method == call.method \
                    and fault.pattern.search(call.path):
                fault.hits += 1
                self.server.faulted.add(call.path)
                if fault.hold:
                    # The release as the call is held: one let go while a lost answer's call
                    # is carried out would otherwise hold it until aiohttp gives up on it.
                    released = self.released
                    fault.held.append(call)
                    if fault.lost:
                        await self._carry_out(call)  # done, its answer lost on the way
                        self.server.answers_lost.add(call.path)
                    await released.wait()
                    if fault.passes:
                        return None
                    call.status = 503
                    return replies.error(503, 0, "loopback: held")
                call.status = fault.status
                headers = {"Retry-After": str(fault.retry_after)}
                return replies.json({"message": "loopback fault", "code": fault.code,
                                     "retry_after": fault.retry_after, "global": False},
                                    fault.status, headers)
        return None

    # -- the world ------------------------------------------------------------------------

    async def _gateway_bot(self, call: Call) -> web.Response:
        return replies.json({"url": self.server.gateway_url,
                             "shards": self.server.recommended_shards,
                             "session_start_limit": {"total": 1000, "remaining": 999,
                                                     "reset_after": 14400000,
                                                     "max_concurrency": 1}})

    async def _me(self, call: Call) -> web.Response:
        return replies.json(self.server.bot_user)

    async def _get_user(self, call: Call) -> web.Response:
        found = self.server.users.get(int(call.match["user"]))
        return replies.json(found) if found else replies.error(404, 10013, "Unknown User")

    async def _get_member(self, call: Call) -> web.Response:
        user_id = int(call.match["user"])
        found = self.server.users.get(user_id) if user_id in self.server.members else None
        if found is None:
            return replies.error(404, 10007, "Unknown Member")
        return replies.json(p.member(found, self.server.nicks.get(user_id)))

    async def _get_guild(self, call: Call) -> web.Response:
        """A guild the bot is in (as REST gives it: no channels, no members); one it was
        removed from answers 403 Missing Access, as Discord does."""
        server = self.server
        guild_id = int(call.match["guild"])
        if guild_id not in server.guilds:
            return replies.error(403, 50001, "Missing Access")
        return replies.json(p.guild(guild_id, server.guilds[guild_id], int(server.owner["id"]),
                                    [], []))

    async def _app_info(self, call: Call) -> web.Response:
        return replies.json(p.application(self.server.app_id, self.server.owner))

    async def _get_commands(self, call: Call) -> web.Response:
        return replies.json(self.server.commands)

    async def _put_commands(self, call: Call) -> web.Response:
        self.server.commands = self._registered(call.body)
        return replies.json(self.server.commands)

    async def _put_guild_commands(self, call: Call) -> web.Response:
        """A server's own commands, listed there beside the global ones (an empty list: none)."""
        guild_id = int(call.match["guild"])
        self.server.guild_commands[guild_id] = self._registered(call.body, guild_id)
        return replies.json(self.server.guild_commands[guild_id])

    def _registered(self, sent: list[dict[str, Any]],
                    guild_id: int | None = None) -> list[dict[str, Any]]:
        server = self.server
        return [{**c, "id": str(server.snowflake()), "application_id": str(server.app_id),
                 "version": str(server.snowflake()),
                 **({"guild_id": str(guild_id)} if guild_id is not None else {})} for c in sent]

    async def _open_dm(self, call: Call) -> web.Response:
        server = self.server
        user_id = int(call.body["recipient_id"])
        if user_id not in server.users:
            return replies.error(400, 50033, "Invalid Recipient(s)")
        if user_id not in server.dms:
            channel_id = server.snowflake()
            server.dms[user_id] = channel_id
            server.channels[channel_id] = p.dm_channel(channel_id, server.users[user_id])
            server.log[channel_id] = []
        return replies.json(server.channels[server.dms[user_id]])

    async def _edit_channel(self, call: Call) -> web.Response:
        return await threads.edit_channel(self.server, call)

    async def _delete_channel(self, call: Call) -> web.Response:
        return await threads.delete_channel(self.server, call)

    async def _get_channel(self, call: Call) -> web.Response:
        found = self.server.channels.get(int(call.match["channel"]))
        return replies.json(found) if found else replies.error(404, 10003, "Unknown Channel")
