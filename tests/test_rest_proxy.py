"""One rate limit across processes: every process of the bot sends through one REST proxy.

Discord counts its global limit (50 requests a second) per bot token, over every process. The
loopback Discord enforces a small one here (with 429s, as Discord does), and two processes
send at once with discord.py's HTTP client: alone they go over it; through one proxy they
stay within it, and a 429 on the way is retried, not lost.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest

from tests.loopback.driver import play_out, start_session
from tests.loopback.harness import ROOT, URL_VAR, BotProcess, loopback_server
from tests.loopback.proxy import rest_proxy
from tests.loopback.ratelimit import GlobalLimit
from tests.loopback.server import LoopbackDiscord

SENDER = Path(__file__).resolve().parent / "loopback" / "sender.py"
PER_SECOND = 10
#: Each sender's messages: 16 in all, over the limit of a second at once, and more than a
#: second's worth through the proxy.
EACH = 8
CHANNELS = 4


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopbackDiscord]:
    async with loopback_server(monkeypatch) as server:
        server.global_limit = GlobalLimit(PER_SECOND)
        yield server


async def two_senders(server: LoopbackDiscord, api: str | None,
                      ready: Callable[[], Awaitable[None]] | None = None) -> list[int]:
    """Two processes posting EACH messages at once over CHANNELS channels (once both are
    started and logged in, and ``ready()`` is done): their exit statuses."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMTALI_")}
    env |= {URL_VAR: f"http://127.0.0.1:{server.port}", "PYTHONPATH": str(ROOT)}
    if api is not None:
        env["UMTALI_DISCORD_API"] = api
    channels = ",".join(str(c) for c in game_channels(server))
    procs = [subprocess.Popen([sys.executable, str(SENDER), channels, str(EACH), tag], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
             for tag in ("first", "second")]

    async def started(proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        said = await asyncio.to_thread(proc.stdout.readline)
        assert said == b"ready\n", f"a sender did not start: {said!r}"

    async def ended(proc: subprocess.Popen[bytes]) -> int:
        while (code := proc.poll()) is None:
            await asyncio.sleep(0.05)
        return code

    async def send() -> list[int]:
        await asyncio.gather(*map(started, procs))
        if ready is not None:
            await ready()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
        return list(await asyncio.gather(*map(ended, procs)))
    try:
        return await asyncio.wait_for(send(), 90)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()


async def warm_up(server: LoopbackDiscord, api: str) -> None:
    """One call through the proxy, and a second gone by, then the loopback counts afresh, its
    first second from now: the senders, started and logged in, are let go right after
    (``two_senders``' ``ready``).

    The proxy counts a second from when it sends a call, Discord from when the call arrives:
    a first call slowed by opening the connection would put the two out of step. The burst's
    first call is slowed too: the proxy counts it, then takes in the rest of the burst
    before it is on its way, and on a busy machine that took more than the 50 ms the proxy
    waits past each second of its own; counted from that call's arrival, the loopback's first
    second took in 4 calls of the proxy's next one. Counted from when the senders are let go,
    it holds the proxy's whole first second, which cannot start before.
    """
    async with aiohttp.ClientSession() as http, http.get(
            api + "/users/@me", headers={"Authorization": "Bot loopback-token"}) as answer:
        assert answer.status == 200
    await asyncio.sleep(1.1)
    limit = GlobalLimit(PER_SECOND)
    limit.start_second()
    server.global_limit = limit


def game_channels(server: LoopbackDiscord) -> list[int]:
    """A channel in each of CHANNELS guilds (made on first use)."""
    while len(server.guilds) < CHANNELS:
        server.add_guild(f"Club {len(server.guilds)}")
    return [c for c, data in server.channels.items() if data["type"] == 0]


def posted(server: LoopbackDiscord) -> list[str]:
    return sorted(m["content"] for c in game_channels(server)
                  for m in server.channel_messages(c))


def every_message() -> list[str]:
    return sorted(f"{tag} {n}" for tag in ("first", "second") for n in range(EACH))


async def test_two_processes_alone_go_over_the_limit(server: LoopbackDiscord) -> None:
    await two_senders(server, None)
    limit = server.global_limit
    assert limit is not None
    # discord.py only learns of the global limit from a 429: each process alone is blind
    # to the other's calls.
    assert limit.busiest_second() > PER_SECOND and limit.refused > 0


async def test_through_one_proxy_two_processes_stay_within_it(server: LoopbackDiscord,
                                                                tmp_path: Path) -> None:
    # A 429 on the way (a route's own limit): the proxy waits and sends the call again.
    fault = server.fail("POST", r"^/channels/[0-9]+/messages$", times=1, retry_after=0.2)
    async with rest_proxy(server, PER_SECOND, tmp_path / "proxy.log") as api:
        assert await two_senders(server, api, ready=lambda: warm_up(server, api)) == [0, 0]
    limit = server.global_limit
    assert limit is not None
    assert limit.busiest_second() <= PER_SECOND
    assert limit.refused == 0
    assert fault.hits == 1
    # Every message once: the 429 was retried, not lost, and nothing was sent twice.
    assert posted(server) == every_message()
    assert all("discord.js" in c.user_agent for c in server.calls), "all came by the proxy"


async def test_the_bot_plays_through_the_proxy(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, rest_proxy(
            server, 50, tmp_path / "proxy.log") as api:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        db = tmp_path / "umtali.sqlite3"
        bot = BotProcess(server, db, tmp_path, env={"UMTALI_DISCORD_API": api})
        try:
            await bot.start()
            saved = await start_session(server, db, alice, bob)
            await play_out(server, db, saved.id, moves=10)
        finally:
            await bot.stop()
        # Every call came through the proxy: messages, pictures, answers to interactions.
        assert server.calls and all("discord.js" in c.user_agent for c in server.calls)
        assert any(c.files for c in server.calls), "a picture was uploaded through it"
        assert any("/interactions/" in c.path for c in server.calls)
