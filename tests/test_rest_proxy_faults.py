"""The REST proxy (proxy/server.mjs) as an admin sets it up and as anything that reaches it
uses it: its settings are read as docs/scale.md says or refused with one sentence, a request
it cannot read is answered 400 without stopping it (it is on the path of every call of every
process), and its log never holds an interaction's token (which lets whoever has it post as
the bot in that channel for 15 minutes).

Skipped, saying why, where node or npm is missing (as tests/test_rest_proxy.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from cogs.umtali.rest_outage import UNREACHABLE
from cogs.umtali.rest_timeout import REST_TIMEOUT
from tests.loopback.driver import play_out, query, read_match, start_session, until
from tests.loopback.harness import BotProcess, loopback_server
from tests.loopback.launch import ASK_REST_VAR
from tests.loopback.proxy import PROXY_DIR, install, rest_proxy
from tests.loopback.ratelimit import GlobalLimit
from tests.loopback.server import LoopbackDiscord
from umtali.players import GreedyPlayer

AUTH = {"Authorization": "Bot loopback-token"}
#: An interaction's token, as Discord makes them (long, URL-safe).
SECRET = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmxvbmdzZWNyZXR0b2tlbg"


async def get_me(api: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(api + "/users/@me",
                                                         headers=AUTH) as answer:
        return answer.status


async def test_a_request_it_cannot_read_is_refused_and_the_proxy_goes_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # An absolute URL with a port out of range: anything that can reach the proxy (a port
    # scanner, a mistyped curl) can send it.
    async with loopback_server(monkeypatch) as server, rest_proxy(
            server, 50, tmp_path / "proxy.log") as api:
        parts = urlsplit(api)
        assert parts.hostname is not None and parts.port is not None
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.write(b"GET http://a:99999/api/v10/users/@me HTTP/1.1\r\nHost: a\r\n"
                     b"Connection: close\r\n\r\n")
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 10)
        writer.close()
        assert status.startswith(b"HTTP/1.1 400"), f"the proxy answered {status!r}"
        # Still there for every process of the bot.
        assert await get_me(api) == 200
        assert not server.calls[1:], "nothing but /users/@me went to Discord"


async def test_an_interaction_token_stays_out_of_its_log(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, closed_port: int
                                                         ) -> None:
    log = tmp_path / "proxy.log"
    gone = {"DISCORD_API": f"http://127.0.0.1:{closed_port}/api"}  # Discord out of reach
    async with loopback_server(monkeypatch) as server, rest_proxy(server, 50, log,
                                                                  gone) as api:
        calls = [("POST", f"/interactions/123456789/{SECRET}/callback"),
                 ("PATCH", f"/webhooks/987654321/{SECRET}/messages/@original"),
                 ("POST", f"/webhooks/987654321/{SECRET}?wait=true")]
        async with aiohttp.ClientSession() as http:
            for method, path in calls:
                async with http.request(method, api + path, json={"content": "hi"}) as answer:
                    assert answer.status == 502, "Discord out of reach: 502, which is retried"
                    # Told apart from Discord's own 5xx: the bot's clocks stand still.
                    assert answer.headers.get(UNREACHABLE[0]) == UNREACHABLE[1]
                    assert SECRET not in await answer.text()
    said = log.read_text()
    # Each failure is logged, saying which call failed; the token is not.
    assert said.count("\n") == 1 + len(calls), said
    assert SECRET not in said, said
    assert "/interactions/123456789/" in said and "/webhooks/987654321/" in said, said


def proxy_default(name: str) -> int:
    """The default of one of proxy/server.mjs's whole-number settings, as it is written there."""
    found = re.search(rf"setting\('{name}', ([0-9_]+),", (PROXY_DIR / "server.mjs").read_text())
    assert found is not None, f"no setting {name} in proxy/server.mjs"
    return int(found[1])


async def test_discord_not_answering_is_told_before_the_bot_hangs_up(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Discord's address taking connections and answering nothing (a network dropping its
    # packets): @discordjs/rest waited 15 s for each of four tries, a minute, while the bot
    # gives a call up after REST_TIMEOUT (30 s): the proxy's 502 saying Discord is out of reach
    # never reached it, a call given up on tells nothing, and the clocks ran on.
    # Here each of the proxy's tries (TRY_MS, 10 s) and the bot's wait are a tenth as long:
    # their tries, the proxy's and the bot's, race as they do at full length.
    scale = 0.1
    tries = str(round(proxy_default("TRY_MS") * scale))
    assert REST_TIMEOUT.total is not None
    hang_up = aiohttp.ClientTimeout(total=REST_TIMEOUT.total * scale)
    held: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    silence = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = silence.sockets[0].getsockname()[1]
    log = tmp_path / "proxy.log"
    try:
        async with loopback_server(monkeypatch) as server, rest_proxy(
                server, 50, log, {"DISCORD_API": f"http://127.0.0.1:{port}/api",
                                  "TRY_MS": tries}) as api, \
                aiohttp.ClientSession(timeout=hang_up) as http:
            started = time.monotonic()
            try:
                async with http.get(api + "/channels/1") as answer:
                    status, told = answer.status, answer.headers.get(UNREACHABLE[0])
            except TimeoutError:
                status, told = 0, None
            took = time.monotonic() - started
            assert (status, told) == (502, UNREACHABLE[1]), \
                f"nothing in {took:.0f} s, and the bot hung up: {log.read_text()}"
    finally:
        for writer in held:
            writer.close()
        silence.close()
        await silence.wait_closed()


@pytest.mark.parametrize(("name", "value"), [
    ("GLOBAL_PER_SECOND", "fifty"), ("GLOBAL_PER_SECOND", "0"), ("GLOBAL_PER_SECOND", "50/s"),
    ("PORT", "80x"), ("PORT", "http"), ("PORT", "70000"),
    ("DISCORD_API", "discord.com/api"), ("DISCORD_API", "https://discord.com/api/v10"),
    ("TRY_MS", "0"), ("TRY_MS", "15000"),
])
def test_a_bad_setting_stops_it_with_one_sentence(name: str, value: str) -> None:
    node = install()
    env = {**os.environ, "PORT": "0", "HOST": "127.0.0.1", name: value}
    try:
        done = subprocess.run([node, str(PROXY_DIR / "server.mjs")], env=env,
                              capture_output=True, text=True, timeout=5, check=False)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"{name}={value}: the proxy started: {e.stdout!r}") from None
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {name} "), done.stderr
    assert repr(value) in lines[0], done.stderr


def test_a_port_in_use_stops_it_with_one_sentence() -> None:
    """``make proxy`` with 8080 taken (a second proxy, another server): one sentence naming
    PORT, not node's stack trace."""
    node = install()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1"}
        done = subprocess.run([node, str(PROXY_DIR / "server.mjs")], env=env,
                              capture_output=True, text=True, timeout=10, check=False)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    said = f"error: could not listen on 127.0.0.1:{port}"
    assert len(lines) == 1 and lines[0].startswith(said), done.stderr
    assert "PORT" in lines[0], done.stderr


async def test_an_empty_host_is_the_machine_alone(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """``HOST=`` (a line of an env file left empty) is the default, as an empty setting of the
    bot is: 127.0.0.1, not every interface of the machine, with the bot's token on every
    call."""
    async with loopback_server(monkeypatch) as server, rest_proxy(
            server, 50, tmp_path / "proxy.log", {"HOST": ""}) as api:
        assert urlsplit(api).hostname == "127.0.0.1", api
        assert await get_me(api) == 200


async def test_an_empty_limit_is_discords(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    """``GLOBAL_PER_SECOND=`` is the default, 50 a second, not no limit at all."""
    async with loopback_server(monkeypatch) as server, rest_proxy(
            server, 50, tmp_path / "proxy.log", {"GLOBAL_PER_SECOND": ""}) as api:
        await warm_up(server, api, 50)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            async def call() -> int:
                async with http.get(api + "/users/@me", headers=AUTH) as answer:
                    return answer.status
            # More than 50 in all: over any higher limit (or none), more than 50 would go
            # out in one second.
            statuses = await asyncio.gather(*(call() for _ in range(60)))
        assert statuses == [200] * 60
        limit = server.global_limit
        assert limit is not None
        assert limit.busiest_second() <= 50 and limit.refused == 0, limit.seconds


async def warm_up(server: LoopbackDiscord, api: str, per_second: int) -> None:
    """One call through the proxy and a second gone by, then Discord's count starts afresh
    (as tests/test_rest_proxy.py's ``warm_up``, which says why)."""
    assert await get_me(api) == 200
    await asyncio.sleep(1.1)
    server.global_limit = GlobalLimit(per_second)
    server.global_limit.start_second()


async def test_a_call_its_caller_gave_up_on_is_not_sent_later(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    """discord.py gives a call up after 30 s (cogs/umtali/rest_timeout.py) and the bot sends
    it again later. Held in the proxy meanwhile (Discord's 429, the global limit), the call
    given up must not go out as well: stale, it would spend the limit the calls still awaited
    need (a click's answer among them, which Discord takes only within 3 s)."""
    async with loopback_server(monkeypatch) as server, rest_proxy(
            server, 50, tmp_path / "proxy.log") as api:
        channel = server.channel_id
        limited = server.fail("POST", rf"^/channels/{channel}/messages$", retry_after=1.0)
        async with aiohttp.ClientSession() as http:
            with pytest.raises(TimeoutError):
                async with http.post(api + f"/channels/{channel}/messages", headers=AUTH,
                                     json={"content": "given up"},
                                     timeout=aiohttp.ClientTimeout(total=0.5)):
                    pass
        assert limited.hits == 1
        await asyncio.sleep(2)  # the 429's 1 s gone by, and the call's way to Discord
        sent = [c for c in server.calls if c.method == "POST"]
        assert len(sent) == 1, "only the call Discord refused (429) went out"
        assert server.channel_messages(channel) == []


async def test_the_bot_goes_on_when_the_proxy_comes_back(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, own_port: int
                                                         ) -> None:
    """The proxy stopped mid-match (docs/scale.md): a move made meanwhile is saved, its answer
    lost, what the players must be shown owed; once the proxy is back on its port that is
    sent and play goes on, with no restart of the bot, and nothing in its log is an ERROR."""
    port = str(own_port)  # the proxy's, while it is stopped too
    db = tmp_path / "umtali.sqlite3"

    def owed() -> str:
        row = query(db, "SELECT unsent, resend FROM matches WHERE id = ?", saved.id)[0]
        return f"{row['resend']}{'' if row['unsent'] == '[]' else row['unsent']}"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        # The clocks ask whether the proxy answers again every 0.5 s, not every 5 s: with
        # nothing else to send, that is what finds it back.
        bot = BotProcess(server, db, tmp_path, env={ASK_REST_VAR: "0.5"})
        try:
            async with rest_proxy(server, 50, tmp_path / "proxy.log", {"PORT": port}) as api:
                bot.env["UMTALI_DISCORD_API"] = api
                await bot.start()
                saved = await start_session(server, db, alice, bob)
                await play_out(server, db, saved.id, moves=2)
            before = read_match(db, saved.id)
            assert before is not None
            seat = before.session.to_act
            move = GreedyPlayer().choose(before.session.view(seat))
            with pytest.raises(TimeoutError):  # "This interaction failed"
                await server.slash(before.player_ids[seat], before.channel_id, "umtali play",
                                   {"move": str(move)}, timeout=3)
            after = read_match(db, saved.id)
            assert after is not None and after.session.moves[-1] == move, "saved all the same"
            await until(owed, "what the players must be shown, owed while the proxy is down")
            shown = len(server.calls)
            async with rest_proxy(server, 50, tmp_path / "proxy.log", {"PORT": port}):
                await until(lambda: not owed() and server.calls[shown:],
                            "what was owed sent once the proxy is back", 60)
                await play_out(server, db, saved.id, moves=2)
        finally:
            await bot.stop()
    said = bot.log.read_text()
    assert " ERROR " not in said and "Traceback" not in said, said
    # Its clocks stood still meanwhile (tests/test_rest_outage.py), and went on.
    assert "the clocks stand still until it can" in said, said
    assert "Discord's REST API answers again" in said, said


async def test_an_interactions_answers_do_not_wait_for_the_global_limit(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Discord does not count the answers to an interaction against the bot's global limit:
    its callback, nor the calls through its webhook (a follow-up, an edit of the answer,
    such as a hand panel's). Held in the proxy behind the bot's other calls, such an edit
    came seconds late, past the bound the bot gives it."""
    async with loopback_server(monkeypatch) as server, rest_proxy(
            server, 1, tmp_path / "proxy.log") as api:
        async with aiohttp.ClientSession() as http:
            async def took(method: str, path: str, headers: dict[str, str]) -> float:
                start = time.monotonic()
                async with http.request(method, api + path, headers=headers,
                                        json={"content": "hi"}) as answer:
                    await answer.read()
                return time.monotonic() - start
            # The global limit (1 a second here) spent for the next 3 seconds.
            busy = [asyncio.create_task(took("GET", "/users/@me", AUTH)) for _ in range(4)]
            await asyncio.sleep(0.3)
            hook = f"/webhooks/{server.app_id}/{SECRET}/messages/@original"
            answers = [await took("PATCH", hook, {}),
                       await took("POST", f"/interactions/123456789/{SECRET}/callback", {})]
            assert max(await asyncio.gather(*busy)) > 2.5, "the limit was spent"
        assert max(answers) < 0.8, answers
