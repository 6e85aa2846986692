"""The loopback Discord's gateway: sessions over websockets, shards, and which events each gets.

As on Discord: IDENTIFY may carry ``shard: [id, count]``; a guild's events go only to the
session whose shard id is ``(guild_id >> 22) % count``, and events with no guild (DMs, and
interactions in DMs) only to shard 0. A bad shard is closed with 4010, and a session that
would hold more guilds than one shard may (``max_guilds_per_shard``) with 4011.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord

INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
#: Discord refuses a session of more guilds than this (it recommends 1 shard per 1000).
MAX_GUILDS_PER_SHARD = 2500
#: The events about a guild itself, which name it by ``id`` rather than ``guild_id``.
GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def shard_of(guild_id: int, count: int) -> int:
    """The shard that gets a guild's events, by Discord's formula."""
    return (guild_id >> 22) % count


@dataclass(eq=False)
class GatewaySession:
    """One identified session: its shard, and every event sent to it (replayed on RESUME)."""

    id: str
    shard: tuple[int, int]
    ws: web.WebSocketResponse | None
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    live: bool = False

    def gets(self, guild_id: int | None) -> bool:
        """Whether an event of this guild (None: no guild, a DM) is this session's."""
        shard_id, count = self.shard
        return shard_id == 0 if guild_id is None else shard_of(guild_id, count) == shard_id


class Gateway:
    """Every session the bot opened; the newest one of each shard receives its events."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self.sessions: dict[str, GatewaySession] = {}
        #: The session of each shard id that events go to.
        self.current: dict[int, GatewaySession] = {}
        self.identifies = 0
        self.resumes = 0
        #: The ``shard`` of every IDENTIFY, in order (None: sent without one).
        self.identified: list[list[int] | None] = []
        #: The close codes of the IDENTIFYs refused.
        self.refused: list[int] = []
        #: Events that no session was to get (no shard of theirs connected).
        self.lost: list[dict[str, Any]] = []
        #: Frames dispatched, over all sessions (for the load bench's events per move).
        self.dispatched = 0
        self._lock = asyncio.Lock()
        self._sockets: set[web.WebSocketResponse] = set()
        #: Until this time (``time.monotonic``) a new connection waits: an outage.
        self.down_until = 0.0

    # -- for tests ------------------------------------------------------------------------

    def live(self) -> bool:
        return bool(self.current) and all(s.live for s in self.current.values())

    async def wait_connected(self, identifies: int, timeout: float) -> None:
        """Until ``identifies`` IDENTIFYs were accepted and every shard's session is live."""
        async def ready() -> None:
            while self.identifies < identifies or not self.live():
                await asyncio.sleep(0.01)
        await asyncio.wait_for(ready(), timeout)

    async def drop(self, shard_id: int | None = None) -> None:
        """Close a shard's connection (every one with None) as Discord does on a hiccup
        (4000: reconnect); its events until it resumes are kept and replayed."""
        for sid, session in list(self.current.items()):
            if shard_id is None or sid == shard_id:
                session.live = False
                if session.ws is not None:
                    await session.ws.close(code=4000, message=b"loopback: dropped")

    async def go_down(self, seconds: float) -> None:
        """An outage: every connection dropped, and new ones answered after ``seconds``."""
        self.down_until = time.monotonic() + seconds
        await self.drop()

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session of its guild's shard (shard 0 for one of no guild)."""
        # A guild's own events name it by ``id``.
        guild = data.get("guild_id", data.get("id") if event in GUILD_EVENTS else None)
        async with self._lock:
            targets = [s for s in self.current.values() if s.gets(
                None if guild is None else int(guild))]
            if not targets:
                self.lost.append({"t": event, "d": data})
            for session in targets:
                await self._queue(session, event, data)

    # -- the protocol ---------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        if (down := self.down_until - time.monotonic()) > 0:
            # Answered once the outage is over (a refusal would send discord.py into a
            # backoff of its own, and an ERROR log at each try).
            await asyncio.sleep(down)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    break
                frame = json.loads(msg.data)
                op, d = frame["op"], frame.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    await self._identify(ws, d)
                elif op == 6:
                    await self._resume(ws, d)
                # Presence (3) and the like need no answer.
        finally:
            self._sockets.discard(ws)
            for session in self.sessions.values():
                if session.ws is ws:
                    session.ws, session.live = None, False
        return ws

    def _refusal(self, shard: Any) -> int | None:
        """The close code Discord answers this IDENTIFY's ``shard`` with, if any."""
        if shard is not None and not (
                isinstance(shard, list) and len(shard) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
                and shard[1] >= 1 and 0 <= shard[0] < shard[1]):
            return INVALID_SHARD
        shard_id, count = shard if shard is not None else (0, 1)
        held = [g for g in self.server.guild_ids() if shard_of(g, count) == shard_id]
        return SHARDING_REQUIRED if len(held) > self.max_guilds_per_shard else None

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        shard = d.get("shard")
        self.identified.append(shard)
        if (code := self._refusal(shard)) is not None:
            self.refused.append(code)
            await ws.close(code=code, message=b"loopback: refused shard")
            return
        shard_id, count = shard if shard is not None else (0, 1)
        async with self._lock:
            # A new session: what was dispatched to an earlier one is gone, as on Discord.
            session = GatewaySession(secrets.token_hex(8), (shard_id, count), ws)
            old = self.current.get(shard_id)
            if old is not None and old.ws is not None and old.ws is not ws:
                await old.ws.close(code=4000)
            self.sessions[session.id] = self.current[shard_id] = session
            self.identifies += 1
            server = self.server
            guilds = [g for g in server.guild_ids() if session.gets(g)]
            ready = {"v": 10, "user": server.bot_user, "guilds": [
                {"id": str(g), "unavailable": True} for g in guilds],
                "session_id": session.id, "resume_gateway_url": server.gateway_url,
                "application": {"id": str(server.app_id), "flags": 0},
                "shard": [shard_id, count]}
            session.live = True
            await self._queue(session, "READY", ready)
            for g in guilds:
                if g not in server.outages:  # listed unavailable; it arrives once back
                    await self._queue(session, "GUILD_CREATE", server.guild_payload(g))

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        async with self._lock:
            session = self.sessions.get(str(d.get("session_id")))
            if session is None or self.current.get(session.shard[0]) is not session:
                await ws.send_str(json.dumps({"op": 9, "d": False}))
                return
            if session.ws is not None and session.ws is not ws:
                await session.ws.close(code=4000)
            session.ws = ws
            self.resumes += 1
            seen = int(d.get("seq") or 0)
            for frame in session.events:
                if frame["s"] > seen:
                    await self._send(session, frame)
            session.seq += 1
            await self._send(session, {"op": 0, "t": "RESUMED", "s": session.seq, "d": {}})
            session.live = True

    async def _queue(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        self.dispatched += 1
        if session.live:
            await self._send(session, frame)

    async def _send(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        ws = session.ws
        if ws is None or ws.closed:
            return
        # The bot may go away mid-send; RESUME replays the frame.
        with contextlib.suppress(ConnectionError):
            await ws.send_str(json.dumps(frame))
        if frame.get("t") == "INTERACTION_CREATE":
            # When it reached the bot (late, replayed after an outage: not the bot's doing).
            record = self.server.interactions.get(frame["d"].get("token", ""))
            if record is not None and not record.delivered_at:
                record.delivered_at = time.perf_counter()
