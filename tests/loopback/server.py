"""A loopback Discord: REST API and gateway on 127.0.0.1, enough for an unmodified discord.py bot.

The bot under test is pointed here by patching ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (see ``tests/loopback/launch.py`` and
``point_discord_py_at``). Tests play members: they send INTERACTION_CREATE events and read what
the bot answered. Every call the bot makes is logged; one this server does not know is answered
404 and recorded in ``unknown``, and the fixtures fail the test that caused it, so a call the
bot made is never silently absorbed.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from aiohttp import web

from tests.loopback import limits
from tests.loopback import payloads as p
from tests.loopback.attachments import Files, attach, dangling, read_body
from tests.loopback.gateway import Gateway, shard_of
from tests.loopback.ratelimit import GlobalLimit

API = "/api/v10"
EPHEMERAL = 64
Handler = Callable[["Call"], Awaitable[web.Response]]


def point_discord_py_at(base_url: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and its gateway connection to the loopback server."""
    discord.http.Route.BASE = base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@dataclass
class Call:
    """One REST call the bot made, and what it was answered."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    match: dict[str, str] = field(default_factory=dict)
    status: int = 0
    #: The files uploaded with it: (filename, bytes).
    files: Files = field(default_factory=list)
    #: Who sent it (discord.py, or a proxy in front of it).
    user_agent: str = ""


@dataclass
class Fault:
    """Answer the next ``times`` calls matching ``method`` and ``pattern`` with an error."""

    method: str
    pattern: re.Pattern[str]
    times: int
    status: int = 429
    retry_after: float = 0.05
    code: int = 0
    hits: int = 0
    #: Instead of answering, hold the call until ``release()`` (a bot dying mid-call).
    hold: bool = False
    #: With ``hold``: once released, answer the call as usual (a slow Discord, not a dead one).
    passes: bool = False
    held: list[Call] = field(default_factory=list)


@dataclass
class Interaction:
    """An interaction a member made, and the bot's answers to it."""

    id: int
    token: str
    payload: dict[str, Any]
    #: The callback (type 4, 5, 6, 7, 8 or 9) and its data; ``None`` until it came.
    callback_type: int | None = None
    callback: dict[str, Any] = field(default_factory=dict)
    #: The message the callback created or updated, then every follow-up, in order.
    messages: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    callbacks: int = 0
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    #: perf_counter() when INTERACTION_CREATE went out and when the callback came in.
    sent_at: float = 0.0
    answered_at: float = 0.0

    @property
    def ephemeral(self) -> bool:
        """Whether everything the bot said in answer was private (flags 64)."""
        if self.callback_type in (4, 5):
            said = [self.callback, *self.followups]
        else:
            # An update (7) edits the message the component was on: private if that one is.
            said = [*self.messages[:1], *self.followups]
        return all(int(m.get("flags") or 0) & EPHEMERAL for m in said)

    @property
    def response(self) -> dict[str, Any] | None:
        """The message the answer created or updated (an ephemeral one included)."""
        return self.messages[0] if self.messages else None

    def text(self) -> str:
        """Everything the answer said, as one string (for assertions on wording)."""
        return json.dumps([self.callback, *self.followups], ensure_ascii=False)


class LoopbackDiscord:
    """Guilds (one to start with: ``guild_id``) with a text channel each, their members (each
    member is in every guild), the bot, and their DMs."""

    def __init__(self) -> None:
        self.snowflake = p.Snowflakes()
        self.app_id = self.snowflake()
        self.bot_user = p.user(self.app_id, "Umtali", bot=True)
        self.owner = p.user(self.snowflake(), "owner")
        self.guild_id = self.snowflake()
        #: The first guild's preferred locale, and each member's client's (en-US unless set).
        self.guild_locale = "en-US"
        self.locales: dict[int, str] = {}
        self.channel_id = self.snowflake()
        #: Every guild's name, the first one's included.
        self.guilds: dict[int, str] = {self.guild_id: "Railway Club"}
        self.guild_locales: dict[int, str] = {}
        #: The shard count ``GET /gateway/bot`` recommends.
        self.recommended_shards = 1
        self.users: dict[int, dict[str, Any]] = {self.app_id: self.bot_user}
        self.members: list[int] = [self.app_id]
        self.channels: dict[int, dict[str, Any]] = {
            self.channel_id: p.text_channel(self.channel_id, self.guild_id, "games")}
        #: Messages by id; ``log[channel]`` lists a channel's public ones in order.
        self.messages: dict[int, dict[str, Any]] = {}
        self.log: dict[int, list[int]] = {self.channel_id: []}
        self.dms: dict[int, int] = {}
        self.refused_dms: set[int] = set()
        self.commands: list[dict[str, Any]] = []
        self.interactions: dict[str, Interaction] = {}
        self.calls: list[Call] = []
        #: Every uploaded file's bytes, by attachment id.
        self.uploads: dict[int, bytes] = {}
        self.unknown: list[str] = []
        #: Protocol mistakes the bot made (answering an interaction twice, ...).
        self.errors: list[str] = []
        self.faults: list[Fault] = []
        #: Discord's global rate limit, when a test sets one (tests/loopback/ratelimit.py).
        self.global_limit: GlobalLimit | None = None
        #: Who waits for a message of a channel to be posted or edited: (check, future).
        self._watchers: dict[int, list[tuple[Callable[[dict[str, Any]], bool],
                                             asyncio.Future[dict[str, Any]]]]] = {}
        self._released = asyncio.Event()
        self.gateway = Gateway(self)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = [
            (m, re.compile(f"^{r}$"), h) for m, r, h in self._route_table()]

    # -- running --------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.base_events.Server)
        self.port = server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        self.release()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- the world ------------------------------------------------------------------------

    def add_guild(self, name: str, shard: tuple[int, int] | None = None) -> tuple[int, int]:
        """A new guild with a text channel, on shard ``(id, count)`` if given: its id and the
        channel's. Guilds made before the bot connects are in its READY."""
        guild_id = self.snowflake()
        if shard is not None:
            # A snowflake's top bits are its time: a few milliseconds on puts it on the shard.
            shard_id, count = shard
            guild_id += ((shard_id - shard_of(guild_id, count)) % count) << 22
        channel_id = self.snowflake()
        self.guilds[guild_id] = name
        self.channels[channel_id] = p.text_channel(channel_id, guild_id, "games")
        self.log[channel_id] = []
        return guild_id, channel_id

    def guild_ids(self) -> list[int]:
        return list(self.guilds)

    def add_member(self, name: str) -> int:
        user_id = self.snowflake()
        self.users[user_id] = p.user(user_id, name)
        self.members.append(user_id)
        return user_id

    def refuse_dms(self, user_id: int) -> None:
        """The member's DMs are closed: sending them one fails with 50007."""
        self.refused_dms.add(user_id)

    def fail(self, method: str, pattern: str, times: int = 1, *, status: int = 429,
             code: int = 0, retry_after: float = 0.05) -> Fault:
        fault = Fault(method, re.compile(pattern), times, status, retry_after, code)
        self.faults.append(fault)
        return fault

    def hold(self, method: str, pattern: str, times: int = 1) -> Fault:
        """Never answer the next matching calls (until ``release``): the bot waits on them."""
        fault = Fault(method, re.compile(pattern), times, hold=True)
        self.faults.append(fault)
        return fault

    def delay(self, method: str, pattern: str, times: int = 1) -> Fault:
        """Answer the next matching calls only after ``release``, and then normally."""
        fault = Fault(method, re.compile(pattern), times, hold=True, passes=True)
        self.faults.append(fault)
        return fault

    def release(self) -> None:
        """Let held calls end (answered 503, as to a bot that is no longer there)."""
        self._released.set()

    def channel_messages(self, channel_id: int) -> list[dict[str, Any]]:
        return [self.messages[i] for i in self.log.get(channel_id, [])]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == 11]

    def dm_messages(self, user_id: int) -> list[dict[str, Any]]:
        channel = self.dms.get(user_id)
        return [] if channel is None else self.channel_messages(channel)

    async def message_in(self, channel_id: int, check: Callable[[dict[str, Any]], bool],
                         timeout: float = 20.0) -> dict[str, Any]:
        """The newest message of the channel that passes ``check``, waiting until one is
        posted or edited so that it does (no polling: load benches wait on thousands)."""
        earlier: dict[str, Any]
        for earlier in reversed(self.channel_messages(channel_id)):
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

    def _changed(self, message: dict[str, Any]) -> None:
        for check, future in self._watchers.get(int(message["channel_id"]), ()):
            if not future.done() and check(message):
                future.set_result(message)

    # -- the gateway (tests/loopback/gateway.py) -----------------------------------------

    @property
    def identifies(self) -> int:
        return self.gateway.identifies

    @property
    def resumes(self) -> int:
        return self.gateway.resumes

    @property
    def _seq(self) -> int:
        """Events dispatched so far (the load bench counts them)."""
        return self.gateway.dispatched

    async def wait_connected(self, identifies: int = 1, timeout: float = 20.0) -> None:
        """Until the bot has identified ``identifies`` times and its sessions are live."""
        await self.gateway.wait_connected(identifies, timeout)

    async def drop_gateway(self, shard_id: int | None = None) -> None:
        """Close the bot's gateway connections (or one shard's) as Discord does on a hiccup
        (4000: reconnect). Events dispatched until it resumes are kept and replayed on RESUME.
        """
        await self.gateway.drop(shard_id)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        await self.gateway.dispatch(event, data)

    def guild_payload(self, guild_id: int) -> dict[str, Any]:
        """GUILD_CREATE's data for a guild."""
        channels = [c for c in self.channels.values()
                    if c["type"] == 0 and int(c["guild_id"]) == guild_id]
        data = p.guild(guild_id, self.guilds[guild_id], int(self.owner["id"]), channels,
                       [p.member(self.bot_user)])
        data["threads"] = [t for t in self.threads() if int(t["guild_id"]) == guild_id]
        data["preferred_locale"] = self.locale_of(guild_id)
        return data

    def locale_of(self, guild_id: int) -> str:
        if guild_id == self.guild_id:
            return self.guild_locale
        return self.guild_locales.get(guild_id, "en-US")

    # -- members acting -------------------------------------------------------------------

    def _base(self, kind: int, user_id: int, channel_id: int) -> Interaction:
        interaction_id = self.snowflake()
        token = f"tok{interaction_id}{secrets.token_hex(4)}"
        channel = self.channels[channel_id]
        guild_id = int(channel.get("guild_id") or self.guild_id)
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.app_id), "type": kind,
            "token": token, "version": 1, "channel_id": str(channel_id), "channel": channel,
            "locale": self.locales.get(user_id, "en-US"), "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "attachment_size_limit": 8 * 1024 * 1024,
            "app_permissions": p.ALL_PERMISSIONS,
        }
        if channel["type"] == 1:
            payload["user"] = self.users[user_id]
            payload["context"] = 1
        else:
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = self.locale_of(guild_id)
            payload["member"] = p.member(self.users[user_id])
            payload["context"] = 0
        record = Interaction(interaction_id, token, payload)
        self.interactions[token] = record
        return record

    async def slash(self, user_id: int, channel_id: int, command: str,
                    options: dict[str, Any] | None = None,
                    timeout: float = 20.0) -> Interaction:
        """``/umtali challenge`` and the like; a member option is given as ``Member(id)``."""
        group, _, name = command.partition(" ")
        record = self._base(2, user_id, channel_id)
        opts: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {"users": {}, "members": {}}
        for key, value in (options or {}).items():
            if isinstance(value, Member):
                who = self.users[value.id]
                opts.append({"name": key, "type": 6, "value": str(value.id)})
                resolved["users"][str(value.id)] = who
                if value.id in self.members:
                    m = p.member(who)
                    del m["user"]
                    resolved["members"][str(value.id)] = m
            elif isinstance(value, bool):
                opts.append({"name": key, "type": 5, "value": value})
            elif isinstance(value, int):
                opts.append({"name": key, "type": 4, "value": value})
            else:
                opts.append({"name": key, "type": 3, "value": str(value)})
        synced = next((c for c in self.commands if c.get("name") == group), None)
        if synced is not None:
            _check_options(synced, name, opts)
        data: dict[str, Any] = {
            "id": synced["id"] if synced else str(self.snowflake()), "name": group, "type": 1,
            "options": [{"name": name, "type": 1, "options": opts}] if name else opts,
        }
        if resolved["users"]:
            data["resolved"] = resolved
        record.payload["data"] = data
        return await self._send_interaction(record, timeout)

    async def click(self, user_id: int, message: dict[str, Any], custom_id: str,
                    values: list[str] | None = None, timeout: float = 20.0) -> Interaction:
        """A click on a button of ``message`` (or a choice in its menu, with ``values``)."""
        on = [c.get("custom_id") for row in message.get("components", [])
              for c in row.get("components", [])]
        if custom_id not in on:
            raise RefusedByClient(f"no component {custom_id!r} on the message")
        record = self._base(3, user_id, int(message["channel_id"]))
        record.payload["message"] = message
        record.payload["data"] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            record.payload["data"] = {"custom_id": custom_id, "component_type": 3,
                                      "values": values}
        return await self._send_interaction(record, timeout)

    async def _send_interaction(self, record: Interaction, timeout: float) -> Interaction:
        record.sent_at = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", record.payload)
        await asyncio.wait_for(record.answered.wait(), timeout)
        return record

    # -- REST -----------------------------------------------------------------------------

    def _route_table(self) -> list[tuple[str, str, Handler]]:
        snow = r"(?P<{}>[0-9]+)"
        ch, msg = snow.format("channel"), snow.format("message")
        hook = r"/webhooks/(?P<app>[0-9]+)/(?P<token>[^/]+)"
        return [
            ("GET", "/gateway/bot", self._gateway_bot),
            ("GET", "/users/@me", self._me),
            ("GET", "/users/" + snow.format("user"), self._get_user),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/oauth2/applications/@me", self._app_info),
            ("GET", "/applications/[0-9]+/commands", self._get_commands),
            ("PUT", "/applications/[0-9]+/commands", self._put_commands),
            ("PUT", "/applications/[0-9]+/guilds/[0-9]+/commands", self._put_commands),
            ("POST", f"/channels/{ch}/messages", self._post_message),
            ("GET", f"/channels/{ch}/messages/{msg}", self._get_message),
            ("PATCH", f"/channels/{ch}/messages/{msg}", self._edit_message),
            ("POST", f"/channels/{ch}/messages/{msg}/threads", self._start_thread),
            ("GET", f"/channels/{ch}", self._get_channel),
            ("POST", r"/interactions/(?P<id>[0-9]+)/(?P<token>[^/]+)/callback",
             self._callback),
            ("POST", hook, self._followup),
            ("GET", hook + "/messages/(?P<message>@original|[0-9]+)", self._hook_get),
            ("PATCH", hook + "/messages/(?P<message>@original|[0-9]+)", self._hook_edit),
            ("DELETE", hook + "/messages/(?P<message>@original|[0-9]+)", self._hook_delete),
        ]

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await read_body(request)
        call = Call(request.method, path, dict(request.query), body, files=files,
                    user_agent=request.headers.get("User-Agent", ""))
        self.calls.append(call)
        if self.global_limit is not None and (
                wait := self.global_limit.retry_after(path)) is not None:
            call.status = 429
            return _json({"message": "You are being rate limited.", "retry_after": wait,
                          "global": True}, 429, {"Retry-After": f"{wait:.3f}",
                                                 "X-RateLimit-Global": "true",
                                                 "X-RateLimit-Scope": "global"})
        for fault in self.faults:
            if fault.hits < fault.times and fault.method == request.method \
                    and fault.pattern.search(path):
                fault.hits += 1
                if fault.hold:
                    fault.held.append(call)
                    await self._released.wait()
                    if fault.passes:
                        break
                    call.status = 503
                    return _error(503, 0, "loopback: held")
                call.status = fault.status
                headers = {"Retry-After": str(fault.retry_after)}
                return _json({"message": "loopback fault", "code": fault.code,
                              "retry_after": fault.retry_after, "global": False},
                             fault.status, headers)
        sent = call.body.get("data") if path.endswith("/callback") and isinstance(
            call.body, dict) else call.body
        if request.method in ("POST", "PATCH") and (refused := limits.problems(sent)):
            call.status = 400
            return _error(400, 50035, "Invalid Form Body: " + "; ".join(refused))
        for method, pattern, handler in self._routes:
            found = pattern.match(path)
            if found and method == request.method:
                call.match = {k: v for k, v in found.groupdict().items() if v is not None}
                response = await handler(call)
                call.status = response.status
                return response
        self.unknown.append(f"{request.method} {path}")
        call.status = 404
        return _json({"message": "404: Not Found (loopback: unknown route)", "code": 0}, 404)

    async def _gateway_bot(self, call: Call) -> web.Response:
        return _json({"url": self.gateway_url, "shards": self.recommended_shards,
                      "session_start_limit": {"total": 1000, "remaining": 999,
                                              "reset_after": 14400000, "max_concurrency": 1}})

    async def _me(self, call: Call) -> web.Response:
        return _json(self.bot_user)

    async def _get_user(self, call: Call) -> web.Response:
        found = self.users.get(int(call.match["user"]))
        return _json(found) if found else _error(404, 10013, "Unknown User")

    async def _app_info(self, call: Call) -> web.Response:
        return _json(p.application(self.app_id, self.owner))

    async def _get_commands(self, call: Call) -> web.Response:
        return _json(self.commands)

    async def _put_commands(self, call: Call) -> web.Response:
        self.commands = [{**c, "id": str(self.snowflake()), "application_id": str(self.app_id),
                          "version": str(self.snowflake())} for c in call.body]
        return _json(self.commands)

    async def _open_dm(self, call: Call) -> web.Response:
        user_id = int(call.body["recipient_id"])
        if user_id not in self.users:
            return _error(400, 50033, "Invalid Recipient(s)")
        if user_id not in self.dms:
            channel_id = self.snowflake()
            self.dms[user_id] = channel_id
            self.channels[channel_id] = p.dm_channel(channel_id, self.users[user_id])
            self.log[channel_id] = []
        return _json(self.channels[self.dms[user_id]])

    async def _get_channel(self, call: Call) -> web.Response:
        found = self.channels.get(int(call.match["channel"]))
        return _json(found) if found else _error(404, 10003, "Unknown Channel")

    def _new_message(self, channel_id: int, body: dict[str, Any],
                     public: bool = True, files: Files | None = None) -> dict[str, Any]:
        channel = self.channels[channel_id]
        guild = int(channel["guild_id"]) if "guild_id" in channel else None
        message = p.message(self.snowflake(), channel_id, self.bot_user, body, guild)
        attach(message, body, files or [], self.uploads, self.snowflake, edit=False)
        self._check_files(message)
        self.messages[int(message["id"])] = message
        if public:
            self.log[channel_id].append(int(message["id"]))
            self._changed(message)
        return message

    async def _post_message(self, call: Call) -> web.Response:
        channel_id = int(call.match["channel"])
        channel = self.channels.get(channel_id)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if channel["type"] == 1 and int(channel["recipients"][0]["id"]) in self.refused_dms:
            return _error(403, 50007, "Cannot send messages to this user")
        return _json(self._new_message(channel_id, call.body, files=call.files))

    def _message(self, call: Call) -> dict[str, Any] | None:
        found = self.messages.get(int(call.match["message"]))
        if found is None or int(found["channel_id"]) != int(call.match["channel"]):
            return None
        return found

    async def _get_message(self, call: Call) -> web.Response:
        return _found(self._message(call))

    async def _edit_message(self, call: Call) -> web.Response:
        return self._edit(self._message(call), call.body, call.files)

    def _edit(self, found: dict[str, Any] | None, body: Any,
              files: Files | None = None) -> web.Response:
        if found is None:
            return _found(None)
        p.edit(found, body)
        attach(found, body, files or [], self.uploads, self.snowflake, edit=True)
        self._check_files(found)
        self._changed(found)
        return _json(found)

    def _check_files(self, message: dict[str, Any]) -> None:
        if missing := dangling(message):
            self.errors.append(f"message {message['id']} shows {missing} without the file")

    def attachment(self, message: dict[str, Any], filename: str) -> bytes | None:
        """The bytes of the message's attachment named ``filename``, if it carries one."""
        for a in message.get("attachments") or []:
            if a["filename"] == filename:
                return self.uploads[int(a["id"])]
        return None

    async def _start_thread(self, call: Call) -> web.Response:
        parent = self.channels.get(int(call.match["channel"]))
        message = self._message(call)
        if parent is None or message is None:
            return _error(404, 10008, "Unknown Message")
        # A thread made from a message has the message's id.
        data = p.thread(int(message["id"]), parent, str(call.body.get("name", "")), self.app_id)
        self.channels[int(data["id"])] = data
        self.log[int(data["id"])] = []
        await self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return _json(data)

    # -- interaction answers --------------------------------------------------------------

    async def _callback(self, call: Call) -> web.Response:
        record = self.interactions.get(call.match["token"])
        if record is None or str(record.id) != call.match["id"]:
            return _error(404, 10062, "Unknown interaction")
        record.callbacks += 1
        record.answered_at = record.answered_at or time.perf_counter()
        if record.callback_type is not None:
            self.errors.append(f"interaction {record.id} answered twice")
            return _error(400, 40060, "Interaction has already been acknowledged.")
        kind = int(call.body["type"])
        data = dict(call.body.get("data") or {})
        record.callback_type, record.callback = kind, data
        channel_id = int(record.payload["channel_id"])
        message: dict[str, Any] | None = None
        if kind in (4, 5):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(channel_id, data if kind == 4 else {
                "flags": data.get("flags")}, public=not ephemeral, files=call.files)
            message["interaction_token"] = record.token
        elif kind == 7:
            source = record.payload.get("message") or {}
            message = self.messages.get(int(source.get("id", 0)))
            if message is None:
                return _error(404, 10008, "Unknown Message")
            p.edit(message, data)
            attach(message, data, call.files, self.uploads, self.snowflake, edit=True)
            self._check_files(message)
            self._changed(message)
        if message is not None:
            record.messages.append(message)
        record.answered.set()
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            resource["message"] = message
        return _json({"interaction": {
            "id": str(record.id), "type": record.payload["type"],
            "response_message_id": message["id"] if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL)},
            "resource": resource})

    def _hook_record(self, call: Call) -> Interaction | None:
        record = self.interactions.get(call.match["token"])
        return record if record is not None and call.match["app"] == str(self.app_id) else None

    def _hook_message(self, call: Call) -> dict[str, Any] | None:
        record = self._hook_record(call)
        if record is None:
            return None
        if call.match["message"] == "@original":
            if record.callback_type == 7:
                return record.messages[0] if record.messages else None
            return next((m for m in record.messages
                         if m.get("interaction_token") == record.token), None)
        found = self.messages.get(int(call.match["message"]))
        return found if found is not None and (found in record.followups
                                               or found in record.messages) else None

    async def _followup(self, call: Call) -> web.Response:
        record = self._hook_record(call)
        if record is None:
            return _error(404, 10015, "Unknown Webhook")
        if record.callback_type is None:
            self.errors.append(f"follow-up to interaction {record.id} before its callback")
            return _error(400, 40060, "Interaction has not been acknowledged.")
        ephemeral = bool(int(call.body.get("flags") or 0) & EPHEMERAL)
        message = self._new_message(int(record.payload["channel_id"]), call.body,
                                    public=not ephemeral, files=call.files)
        record.followups.append(call.body)
        return _json(message)

    async def _hook_get(self, call: Call) -> web.Response:
        return _found(self._hook_message(call))

    async def _hook_edit(self, call: Call) -> web.Response:
        return self._edit(self._hook_message(call), call.body, call.files)

    async def _hook_delete(self, call: Call) -> web.Response:
        found = self._hook_message(call)
        if found is None:
            return _error(404, 10008, "Unknown Message")
        log = self.log.get(int(found["channel_id"]), [])
        if int(found["id"]) in log:
            log.remove(int(found["id"]))
        return web.Response(status=204)


class RefusedByClient(ValueError):
    """Options Discord itself would refuse (wrong type, out of range, not a choice): a member's
    Discord client cannot send them, so they never reach a bot."""


def _check_options(command: dict[str, Any], sub: str, given: list[dict[str, Any]]) -> None:
    """Check options against the synced definition, as Discord does before delivering them."""
    spec = command
    if sub:
        spec = next((o for o in command.get("options", []) if o["name"] == sub), {})
        if not spec:
            raise RefusedByClient(f"no subcommand {sub!r}")
    defs = {o["name"]: o for o in spec.get("options", [])}
    names = {o["name"] for o in given}
    missing = [n for n, o in defs.items() if o.get("required") and n not in names]
    if missing:
        raise RefusedByClient(f"missing {missing}")
    for option in given:
        d = defs.get(option["name"])
        if d is None or d["type"] != option["type"]:
            raise RefusedByClient(f"option {option['name']!r} is not of type {option['type']}")
        value = option["value"]
        choices = d.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise RefusedByClient(f"{value!r} is not a choice of {option['name']!r}")
        if d.get("min_value") is not None and value < d["min_value"]:
            raise RefusedByClient(f"{value!r} is below {d['min_value']}")
        if d.get("max_value") is not None and value > d["max_value"]:
            raise RefusedByClient(f"{value!r} is above {d['max_value']}")
        if isinstance(value, str) and not (
                d.get("min_length", 0) <= len(value) <= d.get("max_length", 6000)):
            raise RefusedByClient(f"{value!r} has the wrong length")
        if value == "" and d.get("required"):
            # Discord's client does not send a required text option left empty.
            raise RefusedByClient("empty required text")


@dataclass(frozen=True)
class Member:
    """A member given as a slash command option."""

    id: int


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly this (no charset),
    # and treats a 429 without ``Via`` as a Cloudflare ban, so both headers are always set.
    return web.Response(body=json.dumps(data).encode(), status=status, headers={
        "Content-Type": "application/json", "Via": "1.1 loopback", **(headers or {})})


def _found(message: dict[str, Any] | None) -> web.Response:
    return _json(message) if message is not None else _error(404, 10008, "Unknown Message")


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status)
