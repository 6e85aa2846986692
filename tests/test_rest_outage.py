"""The shared REST proxy out of reach stands the clocks still (review47): the gateway up, clicks
still arrived, but nobody saw the table or an answer, and a turn run out meanwhile forfeited a
player who could not play. The calls here are scripted (the proxy itself: test_rest_proxy_faults);
the clocks, the match and its checks are the bot's own."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot import UmtaliBot
from cogs.umtali import rest_outage
from cogs.umtali.rest_outage import UNREACHABLE, hear_rest, rest_down
from cogs.umtali.service import MatchService
from settings import Settings
from tests.discord_helpers import World, flush, start_match


class Http:
    """discord.py's HTTP client as ``hear_rest`` sees it: each call answers as scripted."""

    def __init__(self) -> None:
        self.next: Callable[[], Any] = lambda: {}
        # Made without the bot's trace of each try (``rest_outage.FirstTries``).
        self.http_trace = None

    async def request(self, route: object, **kwargs: Any) -> Any:
        return self.next()


def _raise(error: BaseException) -> Callable[[], Any]:
    def fail() -> Any:
        raise error
    return fail


def _server_error(headers: dict[str, str]) -> discord.DiscordServerError:
    response = SimpleNamespace(status=502, reason="Bad Gateway", headers=headers)
    return discord.DiscordServerError(response, "")


async def _call(http: Http, outcome: Callable[[], Any]) -> None:
    http.next = outcome
    with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
        await http.request("route")
    # What it began or ended beside the call.
    await asyncio.gather(*list(rest_outage._beside))


def _heard(world: World) -> tuple[MatchService, Http]:
    svc = world.bot.matches
    assert svc is not None
    http = Http()
    hear_rest(http, svc, lambda: False)  # type: ignore[arg-type]
    return svc, http


async def test_the_proxy_out_of_reach_stands_the_clocks_still(world: World) -> None:
    live = await start_match(world, turn_timer=1)
    svc, http = _heard(world)
    deadline = live.deadline
    assert deadline is not None
    await _call(http, _raise(aiohttp.ServerDisconnectedError()))
    assert rest_down(svc)
    # Five minutes out of reach, the turn's minute long past: nothing run out.
    for _ in range(10):
        world.clock.advance(30)
        await svc.check_timers()
    await flush(world)
    assert not live.over and live.question == "" and live.deadline == deadline
    # The proxy answers again (a 404 too is an answer): the turn gets the five minutes back.
    await _call(http, _raise(discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                                              "")))
    assert not rest_down(svc)
    assert live.deadline is not None and live.deadline >= deadline + 299
    await svc.check_timers()
    assert not live.over and live.question == ""


@pytest.mark.parametrize(("error", "down"), [
    (_server_error({UNREACHABLE[0]: UNREACHABLE[1]}), True),
    (_server_error({}), False),  # Discord's own 5xx, passed on: that call's alone
    (aiohttp.ServerTimeoutError(), False),  # a call that took too long (a rate limit's queue)
])
async def test_what_tells_the_proxy_cannot_reach_discord(world: World, error: BaseException,
                                                        down: bool) -> None:
    await start_match(world, turn_timer=1)
    svc, http = _heard(world)
    await _call(http, _raise(error))
    assert rest_down(svc) is down
    await _call(http, lambda: {})
    assert not rest_down(svc)


async def test_a_failure_as_it_ends_begins_it_again(world: World) -> None:
    live = await start_match(world, turn_timer=1)
    svc, http = _heard(world)
    await _call(http, _raise(aiohttp.ServerDisconnectedError()))
    world.clock.advance(120)
    # Answered, then failing again before the ending ran: still out of reach.
    http.next = lambda: {}
    await http.request("route")
    await _call(http, _raise(aiohttp.ServerDisconnectedError()))
    assert rest_down(svc)
    world.clock.advance(120)
    await svc.check_timers()
    assert not live.over and live.question == ""


async def test_an_interactions_answer_failing_tells_it_too(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    # A process with nothing else to send hears of it by the clicks' answers (discord.py's
    # webhook adapter, through the proxy too): the gateway up, clicks keep arriving.
    live = await start_match(world, turn_timer=1)
    answers = Http()

    async def answer(self: AsyncWebhookAdapter, *args: Any, **kwargs: Any) -> Any:
        return await answers.request(args)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", answer)
    svc, _http = _heard(world)
    adapter = AsyncWebhookAdapter()  # type: ignore[no-untyped-call]
    for outcome, down in ((_raise(aiohttp.ServerDisconnectedError()), True), (lambda: {}, False)):
        answers.next = outcome
        with contextlib.suppress(aiohttp.ClientError):
            await adapter.request("route", None)  # type: ignore[arg-type]
        await asyncio.gather(*list(rest_outage._beside))
        assert rest_down(svc) is down
    assert not live.over


async def test_the_proxys_first_502_stands_the_clocks_still(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    # discord.py tries a 502 five times, 1 + 3 + 5 + 7 + 9 s apart, before the call fails (an
    # interaction's answer too): heard only then, the clocks ran 25 s past the proxy's first
    # word that Discord was out of reach, and a turn with less left was forfeited meanwhile.
    live = await start_match(world, turn_timer=1)
    svc = world.bot.matches
    assert svc is not None
    tries: list[str] = []

    async def proxy(request: web.Request) -> web.Response:
        if request.path.startswith("/cdn/"):
            return web.Response(body=b"png", headers={"Connection": "close"})
        if request.path.endswith("/users/@me"):
            return web.json_response({"id": "1", "username": "umtali", "discriminator": "0",
                                      "avatar": None, "global_name": None},
                                     headers={"Connection": "close"})
        tries.append(request.path)
        return web.Response(status=502, headers={UNREACHABLE[0]: UNREACHABLE[1],
                                                 "Connection": "close"})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    base = f"http://127.0.0.1:{port}/api/v10"
    monkeypatch.setattr(Route, "BASE", base)
    # The HTTP client as the bot makes it, through the proxy.
    bot = UmtaliBot(Settings(token="x", discord_api=base))
    call: asyncio.Task[Any] | None = None
    try:
        await bot.http.static_login("x")
        hear_rest(bot.http, svc, lambda: False)
        call = asyncio.create_task(bot.http.request(Route("GET", "/channels/{channel_id}",
                                                          channel_id=1)))
        for _ in range(250):
            if tries:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        assert tries == ["/api/v10/channels/1"], "one try so far (the next after 1 s)"
        assert rest_down(svc), "the proxy's first 502 saying Discord is out of reach"
        # What the session fetches elsewhere (a picture from Discord's CDN; the gateway's
        # handshake goes by it too) tells nothing of the proxy.
        assert await bot.http.get_from_cdn(f"http://127.0.0.1:{port}/cdn/a.png") == b"png"
        assert rest_down(svc), "a call not to the proxy ended it"
        world.clock.advance(120)
        await svc.check_timers()
        await flush(world)
        assert not live.over and live.question == ""
    finally:
        if call is not None:
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError, discord.HTTPException):
                await call
        await bot.http.close()
        await runner.cleanup()
        # The connections' transports closed before the test ends (aiohttp closes them soon
        # after).
        await asyncio.sleep(0.1)


async def test_the_clocks_ask_whether_it_answers_again(world: World) -> None:
    # Heard by a click's answer failing, nothing left to send: the proxy back, nothing told
    # the clocks, which stood still as long as nobody clicked. A player gone from the table
    # kept their turn for ever, its time on the table long run out, the other left waiting.
    live = await start_match(world, turn_timer=1)
    svc, http = _heard(world)
    await _call(http, _raise(aiohttp.ServerDisconnectedError()))
    assert rest_down(svc)
    asked: list[int] = []

    def answers() -> Any:
        asked.append(1)
        return {}

    http.next = answers  # the proxy is back; no call of the bot's own
    for _ in range(4):
        world.clock.advance(30)
        await svc.check_timers()
        await asyncio.gather(*list(rest_outage._beside))
    assert asked, "the clocks' checks asked"
    assert not rest_down(svc)
    for _ in range(4):
        world.clock.advance(30)
        await svc.check_timers()
    await flush(world)
    assert live.over or live.question != "", "the turn ran out once the clocks went on"


async def test_calls_answered_after_the_stop_tell_its_clocks_nothing(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    # The bot stopped with the proxy still out of reach, its database closed. A call cut short
    # by the stop, or the answer to a click turned away as it stopped (discord.py's webhook
    # adapter is the process's: any bot's answer), answered after, ended the outage and gave
    # its time back into the closed database: two WARNINGs in the admin's log at the stop (and
    # in a later test's, the stopped test's service still heard: review70).
    caplog.set_level(logging.WARNING)
    live = await start_match(world, turn_timer=1)
    answers = Http()

    async def answer(self: AsyncWebhookAdapter, *args: Any, **kwargs: Any) -> Any:
        return await answers.request(args)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", answer)
    svc, http = _heard(world)
    await _call(http, _raise(aiohttp.ServerDisconnectedError()))
    assert rest_down(svc)
    heard = len(caplog.records)  # (its WARNING)
    world.clock.advance(120)
    # The stop: the service closed (its note of the stop taken), then the database.
    await svc.close()
    await svc.store.close()
    await _call(http, lambda: {})
    await AsyncWebhookAdapter().request("route", None)  # type: ignore[no-untyped-call,arg-type]
    await asyncio.gather(*list(rest_outage._beside))
    warned = [r.getMessage() for r in caplog.records[heard:]
              if r.levelno >= logging.WARNING and r.name.startswith(("cogs.", "data."))]
    assert warned == []
    assert not live.over
