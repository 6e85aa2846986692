"""The rate-limit proxy every process shares (docs/scale.md) out of reach, or answering that
Discord is, stands the clocks still as a gateway outage does. Clicks still arrive then (the
gateway is up), but nobody sees the table, their hand or the answer to a click, and a turn run
out meanwhile would forfeit a player who could not play.

Only where the whole of the REST API is known to be out of reach: no connection to the proxy
(one host for every call), or the proxy's own 502 saying it cannot reach Discord (its header
``X-Umtali-Proxy``). Not for a 5xx or a network error of one call without the proxy: one
channel failing is that channel's (given up after its tries: ``Delivery._give_up_channel``),
and every other call may go through.

Such a failure begins an outage, noted at once as a gateway's is (another process judges a
move on a match held here by that note); the next call the proxy answers at all ends it, each
running turn given back the time its clock stood still. It is the gateway outage's own
bookkeeping (``clock.gateway_lost``, ``gateway_back``), for a pseudo-shard of its own,
``REST``: a gateway and a REST outage at once end when both are over. Its begin and end run
beside the call that heard them: the call may be made under a match's lock, which giving
time back takes."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from cogs.umtali.alive import noted
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.clock_state import Outage

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: The pseudo-shard a REST outage is noted under in the gateway's outage (``Outage.down``).
REST = "rest"

#: The proxy's header on its own 502, when it cannot reach Discord (proxy/server.mjs).
UNREACHABLE = ("X-Umtali-Proxy", "discord-unreachable")

#: The begins and ends under way (kept, lest a task be collected before it ran).
_beside: set[asyncio.Task[None]] = set()


def rest_down(svc: MatchService) -> bool:
    """Whether the clocks stand still for a REST outage (with or without a gateway one)."""
    outage = svc.clock_state.outage
    return outage is not None and REST in outage.down


class FirstTries(aiohttp.TraceConfig):
    """Each try of a call, heard as it is answered (``discord.Client(http_trace=...)``: the
    session of the bot's calls and of its interactions' answers alike). discord.py tries a
    5xx five times, 1 + 3 + 5 + 7 + 9 s apart, before the call fails: heard only then, the
    clocks ran 25 s past the proxy's first word that Discord was out of reach, and a turn
    with less left was forfeited meanwhile. The services hearing it: ``hear_rest``."""

    def __init__(self) -> None:
        super().__init__()
        self.hearing: dict[MatchService, Callable[[], bool]] = {}
        self.on_request_end.append(self._answered)

    async def _answered(self, session: aiohttp.ClientSession, context: Any,
                        params: aiohttp.TraceRequestEndParams) -> None:
        if not str(params.url).startswith(Route.BASE):
            # Not to the proxy: a picture from Discord's CDN, the gateway's handshake (a
            # gateway back says nothing of the proxy).
            return
        response = params.response
        name, value = UNREACHABLE
        for svc, closed in list(self.hearing.items()):
            if response.status >= 500 and response.headers.get(name) == value:
                _failed(svc, closed, f"the proxy's {response.status}: Discord out of reach")
            else:
                _reached(svc)


def hear_rest(http: HTTPClient, svc: MatchService, closed: Callable[[], bool]) -> None:
    """Have each of ``http``'s calls (through the proxy), and the answers to interactions (by
    discord.py's webhook adapter, through the proxy too), tell ``svc``'s clocks whether
    Discord's REST API was reached (``closed()``: the bot is stopping, and its calls' failures
    tell nothing). The answers matter most: the gateway up, clicks go on arriving, and their
    answers failing are what tells a process with nothing else to send."""
    _hearing[svc] = closed
    if isinstance(http.http_trace, FirstTries):
        # Each try heard, not only the call's end (``FirstTries``).
        http.http_trace.hearing[svc] = closed
    _hear_answers()
    request = http.request

    async def heard(route: Route, **kwargs: Any) -> Any:
        return await _told(request(route, **kwargs), {svc: closed})

    http.request = heard  # type: ignore[method-assign]
    asking: set[asyncio.Task[None]] = set()
    asked = [float("-inf")]

    async def ask() -> None:
        # Told by the call (``_told``), whatever it meets.
        try:
            await heard(Route("GET", "/users/@me"))
        except (discord.DiscordException, aiohttp.ClientError, OSError):
            pass
        except RuntimeError:
            # Its session closed under it between tries, the bot stopping.
            if not closed():
                raise

    def again(now: float) -> None:
        if closed() or not rest_down(svc) or asking or now - asked[0] < ASK_EVERY:
            return
        asked[0] = now
        task = _beside_call(ask())
        asking.add(task)
        task.add_done_callback(asking.discard)

    svc.clock_state.ask_rest = again


#: While Discord's REST API is out of reach, a check of the clocks asks it whether it answers
#: again at most this often (seconds): its end is told by a call going through, and a process
#: may have nothing else to send (a click's answer told it, and nobody clicks); its clocks
#: stood still for ever, a player gone from the table keeping their turn.
ASK_EVERY = 5.0


#: The services whose clocks hear the calls (one a process; several in the tests).
_hearing: weakref.WeakKeyDictionary[MatchService, Callable[[], bool]] = \
    weakref.WeakKeyDictionary()


def stop_hearing(svc: MatchService) -> None:
    """``svc`` closing (``MatchService.close``, its stop noted): no call answered or failing
    from now on begins or ends its outage. Its database closes next; an outage still on is
    given back at the next start, by that note. Any bot's interaction answers are heard by
    every service hearing (``_hear_answers``), and a call of its own, cut short by the stop,
    may still be answered."""
    _hearing.pop(svc, None)


def _hear_answers() -> None:
    """discord.py's webhook adapter (every interaction's answer) tells the services hearing."""
    adapter = AsyncWebhookAdapter
    if getattr(adapter.request, "heard_by_umtali", False):
        return
    request = adapter.request

    async def heard(self: AsyncWebhookAdapter, *args: Any, **kwargs: Any) -> Any:
        return await _told(request(self, *args, **kwargs), dict(_hearing))

    heard.heard_by_umtali = True  # type: ignore[attr-defined]
    adapter.request = heard  # type: ignore[method-assign]


async def _told(call: Awaitable[Any], hearing: dict[MatchService, Callable[[], bool]]) -> Any:
    """``call``'s answer, each service in ``hearing`` told whether Discord was reached."""
    try:
        answer = await call
    except discord.HTTPException as e:
        for svc, closed in hearing.items():
            if unreachable(e):
                _failed(svc, closed, _named(e))
            else:
                _reached(svc)
        raise
    except aiohttp.ClientConnectionError as e:
        # Not a call that took too long (a queue behind a rate limit, a large upload).
        if not isinstance(e, TimeoutError):
            for svc, closed in hearing.items():
                _failed(svc, closed, _named(e))
        raise
    for svc in hearing:
        _reached(svc)
    return answer


def unreachable(error: discord.HTTPException) -> bool:
    """Whether ``error`` is the proxy's 502 saying it cannot reach Discord."""
    name, value = UNREACHABLE
    headers = getattr(error.response, "headers", None)
    return isinstance(error, discord.DiscordServerError) and headers is not None and \
        headers.get(name) == value


def _beside_call(work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    task = asyncio.get_running_loop().create_task(work)
    _beside.add(task)
    task.add_done_callback(_beside.discard)
    return task


def _named(error: BaseException) -> str:
    return f"{error.__class__.__name__}: {error}"


def _failed(svc: MatchService, closed: Callable[[], bool], why: str) -> None:
    if rest_down(svc) or closed() or svc not in _hearing:
        return
    began = svc.clock_state.outage is None
    gateway_lost(svc, REST)
    log.warning("Discord's REST API cannot be reached (%s); the clocks stand still until "
                "it can", why)
    if began:
        _beside_call(_noted(svc))


async def _noted(svc: MatchService) -> None:
    await noted(svc, "as Discord's REST API failed")


def _reached(svc: MatchService) -> None:
    outage = svc.clock_state.outage
    if outage is not None and REST in outage.down and svc in _hearing:
        # Up at once, not when the ending runs: a failure meanwhile begins another.
        outage.down.discard(REST)
        log.info("Discord's REST API answers again")
        if not outage.down:
            _beside_call(_ended(svc, outage))


async def _ended(svc: MatchService, outage: Outage) -> None:
    # Unless a failure since began it again (or another shard's outage holds it), or the
    # service closed meanwhile.
    if svc.clock_state.outage is outage and not outage.down and svc in _hearing:
        await gateway_back(svc, REST)
