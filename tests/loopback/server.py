"""A loopback Discord: REST API and gateway on 127.0.0.1, enough for an unmodified discord.py bot.

The bot under test is pointed here by patching ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (see ``tests/loopback/launch.py`` and
``point_discord_py_at``). Tests play members: they send INTERACTION_CREATE events and read what
the bot answered. Every call the bot makes is logged; one this server does not know is answered
404 and recorded in ``unknown``, and the fixtures fail the test that caused it, so a call the
bot made is never silently absorbed.

This module holds the world (guilds, channels, members, messages) and the API tests use; its
parts do the work: ``rest`` (routes, faults, limits), ``messages`` (posts and edits),
``answers`` (interaction callbacks and follow-ups), ``acting`` (members' interactions),
``options`` (slash options), ``gateway`` (sessions and shards), ``records`` (what is kept).
"""

from __future__ import annotations

import asyncio
import gc
import re
import warnings
from collections.abc import Callable
from typing import Any

import discord
import yarl
from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from tests.loopback import acting, threads
from tests.loopback import payloads as p
from tests.loopback.answers import Answers
from tests.loopback.gateway import Gateway, shard_of
from tests.loopback.messages import Posts
from tests.loopback.options import RefusedByClient
from tests.loopback.ratelimit import GlobalLimit
from tests.loopback.records import EPHEMERAL, Call, Fault, Interaction, Member
from tests.loopback.rest import API, Rest

# The names tests import from here (they lived in this module before it was split).
__all__ = ["EPHEMERAL", "Call", "Fault", "Interaction", "LoopbackDiscord", "Member",
           "RefusedByClient", "point_discord_py_at"]


def point_discord_py_at(base_url: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and its gateway connection to the loopback server."""
    discord.http.Route.BASE = base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


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
        #: Guilds in an outage: in READY (unavailable, as all are), with no GUILD_CREATE after.
        self.outages: set[int] = set()
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
        #: Whether a message already in closed DMs (``refused_dms``) is refused an edit too
        #: (403 50007), as a new one is: else the bot, editing its panel there, never learns.
        self.dm_edits_refused = False
        #: Members' nicknames (on every server of the loopback's), by id: their display name
        #: there, the Discord-wide one being the user's ``global_name``.
        self.nicks: dict[int, str] = {}
        self.commands: list[dict[str, Any]] = []
        #: Each server's own commands (UMTALI_DEV_GUILD_ID's copies), by its id.
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[str, Interaction] = {}
        self.calls: list[Call] = []
        #: Every uploaded file's bytes, by attachment id.
        self.uploads: dict[int, bytes] = {}
        self.unknown: list[str] = []
        #: Protocol mistakes the bot made (answering an interaction twice, ...).
        self.errors: list[str] = []
        #: Whether a first answer after Discord's 3 seconds is refused (10062) and kept in
        #: ``errors`` and ``late``; a test may turn it off (a debugger's pauses).
        self.expiring = True
        #: The interactions whose first answer came too late (``answers.EXPIRES_AFTER``).
        self.late: list[Interaction] = []
        #: The paths of calls carried out whose answer was lost (``lose_answer``): the bot's
        #: client may make them again (discord.py's webhook adapter, after a 5xx).
        self.answers_lost: set[str] = set()
        #: Calls a fault refused (their paths): an interaction's first answer refused so and
        #: tried again too late was made late by Discord, not by the bot.
        self.faulted: set[str] = set()
        self.faults: list[Fault] = []
        #: Whether the bot may manage threads: a locked thread refuses it otherwise
        #: (``tests/loopback/threads.py``).
        self.bot_manages_threads = False
        #: Members' permissions where they are not all (by user id), as interactions carry them.
        self.member_permissions: dict[int, int] = {}
        #: Each change of a thread's state (archived, locked, ...), in order: (thread, changes).
        self.thread_changes: list[tuple[int, dict[str, Any]]] = []
        #: Discord's global rate limit, when a test sets one (tests/loopback/ratelimit.py).
        self.global_limit: GlobalLimit | None = None
        self.gateway = Gateway(self)
        self.posts = Posts(self)
        self.answers = Answers(self)
        # Last: its route table names the handlers of the parts above.
        self.rest = Rest(self)
        self._runner: web.AppRunner | None = None
        self.port = 0

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
        app.router.add_route("*", API + "/{tail:.*}", self.rest.handle)
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
        if self._runner is not None and (handlers := self._runner.server) is not None:
            await self._runner.cleanup()
            # A connection accepted as the site stopped may get its handler only after aiohttp
            # closed the others (asyncio 3.11 does not track it): such a socket would be left to
            # the garbage collector, whose ResourceWarning then fails whichever test runs.
            late = handlers.connection_made

            def refuse(handler: RequestHandler, transport: asyncio.Transport) -> None:
                late(handler, transport)
                handler.force_close()

            handlers.connection_made = refuse  # type: ignore[method-assign]
            for handler in handlers.connections:
                handler.force_close()
            # A closed transport closes its socket on the loop's next turn, and an accept under
            # way ends on a later one: give them those turns before the test's loop closes.
            await asyncio.sleep(0.05)
            await asyncio.sleep(0)
            # An accept that ended after the site stopped may leave a transport no handler
            # took, in a reference cycle: collected here, where it is known to be this
            # server's, not in whichever later test the garbage collector happens to run in.
            with warnings.catch_warnings():
                warnings.filterwarnings(
                    "ignore", r"unclosed transport <_SelectorSocketTransport", ResourceWarning)
                warnings.filterwarnings(
                    "ignore", rf"unclosed <socket\.socket .*laddr=\('127\.0\.0\.1', {self.port}\)",
                    ResourceWarning)
                gc.collect()

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

    def two_guilds(self) -> tuple[int, int]:
        """A second guild, on the other shard of two from the first one's: the channel of the
        guild on shard 0 and of the one on shard 1."""
        first = shard_of(self.guild_id, 2)
        _, other = self.add_guild("Chess Club", shard=(1 - first, 2))
        return (self.channel_id, other) if first == 0 else (other, self.channel_id)

    def guild_ids(self) -> list[int]:
        return list(self.guilds)

    async def remove_bot(self, guild_id: int) -> None:
        """An admin kicks the bot: GUILD_DELETE (lost if the bot is not connected), and from
        then on, as on Discord, every call to the guild's channels and threads answers 403
        Missing Access."""
        del self.guilds[guild_id]
        for channel_id, channel in self.channels.items():
            if int(channel.get("guild_id") or 0) == guild_id:
                for method in ("GET", "POST", "PATCH", "DELETE", "PUT"):
                    self.fail(method, rf"^/channels/{channel_id}(/|$)", times=10**9,
                              status=403, code=50001)
        await self.dispatch("GUILD_DELETE", {"id": str(guild_id)})

    async def guild_outage(self, guild_id: int) -> None:
        """The guild's servers fail at Discord: GUILD_DELETE marked unavailable; a session
        identified meanwhile has it in READY only (``outages``)."""
        self.outages.add(guild_id)
        await self.dispatch("GUILD_DELETE", {"id": str(guild_id), "unavailable": True})

    async def guild_back(self, guild_id: int) -> None:
        """The guild's outage is over: GUILD_CREATE, as Discord sends then."""
        self.outages.discard(guild_id)
        await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id))

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

    def lose_answer(self, method: str, pattern: str, times: int = 1) -> Fault:
        """Carry out the next matching calls, and never answer them (until ``release``, then
        503): the bot gives up on a call Discord did. (A 5xx answered instead, discord.py
        would send it again itself, with the same nonce: Discord would drop the second.)"""
        fault = Fault(method, re.compile(pattern), times, hold=True, lost=True)
        self.faults.append(fault)
        return fault

    def delay(self, method: str, pattern: str, times: int = 1) -> Fault:
        """Answer the next matching calls only after ``release``, and then normally."""
        fault = Fault(method, re.compile(pattern), times, hold=True, passes=True)
        self.faults.append(fault)
        return fault

    def release(self, *, hold_later: bool = False) -> None:
        """Let held calls end (answered 503, as to a bot that is no longer there).
        ``hold_later``: a call held from now on waits for its own release (else it ends at
        once)."""
        self.rest.released.set()
        if hold_later:
            self.rest.released = asyncio.Event()

    def channel_messages(self, channel_id: int) -> list[dict[str, Any]]:
        return [self.messages[i] for i in self.log.get(channel_id, [])]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == 11]

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """The thread archived, as Discord does after its ``auto_archive_duration`` with no
        message, or a moderator by hand (``locked``: and locked)."""
        changes = {"archived": True, **({"locked": True} if locked else {})}
        await threads.set_state(self, thread_id, **changes)

    async def lock_thread(self, thread_id: int) -> None:
        """A moderator locks the thread, leaving it active."""
        await threads.set_state(self, thread_id, locked=True)

    def thread_state(self, thread_id: int) -> dict[str, Any]:
        """The thread's ``thread_metadata`` as Discord has it now."""
        meta: dict[str, Any] = self.channels[thread_id]["thread_metadata"]
        return meta

    def dm_messages(self, user_id: int) -> list[dict[str, Any]]:
        channel = self.dms.get(user_id)
        return [] if channel is None else self.channel_messages(channel)

    async def message_in(self, channel_id: int, check: Callable[[dict[str, Any]], bool],
                         timeout: float = 20.0) -> dict[str, Any]:
        """The newest message of the channel that passes ``check``, waiting until one is
        posted or edited so that it does (no polling: load benches wait on thousands)."""
        return await self.posts.message_in(channel_id, check, timeout)

    def attachment(self, message: dict[str, Any], filename: str) -> bytes | None:
        """The bytes of the message's attachment named ``filename``, if it carries one."""
        return self.posts.attachment(message, filename)

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

    async def gateway_down(self, seconds: float) -> None:
        """A gateway outage: the bot's connections dropped, new ones answered only after
        ``seconds``, so no event (no click, no command) reaches it meanwhile."""
        await self.gateway.go_down(seconds)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        await self.gateway.dispatch(event, data)

    def guild_payload(self, guild_id: int) -> dict[str, Any]:
        """GUILD_CREATE's data for a guild."""
        channels = [c for c in self.channels.values()
                    if c["type"] == 0 and int(c["guild_id"]) == guild_id]
        data = p.guild(guild_id, self.guilds[guild_id], int(self.owner["id"]), channels,
                       [p.member(self.bot_user)])
        # Only the active ones: Discord syncs no archived thread.
        data["threads"] = [t for t in self.threads() if int(t["guild_id"]) == guild_id
                           and not t["thread_metadata"]["archived"]]
        data["preferred_locale"] = self.locale_of(guild_id)
        return data

    def locale_of(self, guild_id: int) -> str:
        if guild_id == self.guild_id:
            return self.guild_locale
        return self.guild_locales.get(guild_id, "en-US")

    # -- members acting (tests/loopback/acting.py) --------------------------------------

    async def slash(self, user_id: int, channel_id: int, command: str,
                    options: dict[str, Any] | None = None,
                    timeout: float = 20.0) -> Interaction:
        """``/umtali challenge`` and the like; a member option is given as ``Member(id)``."""
        return await acting.slash(self, user_id, channel_id, command, options, timeout)

    async def autocomplete(self, user_id: int, channel_id: int, command: str, option: str,
                           typed: str, timeout: float = 20.0) -> Interaction:
        """Suggestions for ``typed`` in ``command``'s option ``option`` (callback 8)."""
        return await acting.autocomplete(self, user_id, channel_id, command, option, typed,
                                         timeout)

    async def click(self, user_id: int, message: dict[str, Any], custom_id: str,
                    values: list[str] | None = None, timeout: float = 20.0) -> Interaction:
        """A click on a button of ``message`` (or a choice in its menu, with ``values``)."""
        return await acting.click(self, user_id, message, custom_id, values, timeout)

    async def submit(self, user_id: int, shown: Interaction, values: dict[str, str],
                     timeout: float = 20.0) -> Interaction:
        """The modal the bot answered ``shown`` with, filled in with ``values`` and submitted."""
        return await acting.submit(self, user_id, shown, values, timeout)

    # -- seams for subclasses -------------------------------------------------------------
    # The webhook edit and delete of an interaction's answer are routed through these, so that
    # a subclass can note them (the load bench times answers that come in two steps).

    def excuse_late(self) -> list[Interaction]:
        """The interactions answered too late, taken out of ``errors``: for a test that
        made them late on purpose (and checks what the bot then did)."""
        late, self.late = self.late, []
        self.errors[:] = [e for e in self.errors if not e.endswith("expired (10062)")]
        return late

    async def _hook_edit(self, call: Call) -> web.Response:
        return await self.answers.edit(call)

    async def _hook_delete(self, call: Call) -> web.Response:
        return await self.answers.delete(call)
