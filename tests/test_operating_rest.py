"""Start-up when the REST proxy (UMTALI_DISCORD_API) is down, or Discord's API fails: one
sentence naming what to look at, exit status 1, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: bot.py run as ``python bot.py`` runs it, except that discord.py's HTTP client tries a 5xx
#: again at once, not over some 25 s (as ``tests.loopback.harness.retries_at_once``): its five
#: tries and what bot.py makes of their failure are the same.
RETRIES_AT_ONCE = """
import asyncio, runpy, sys, types
import discord.http
fast = types.ModuleType("asyncio")
fast.__dict__.update(asyncio.__dict__)
async def no_wait(delay, result=None):
    return await asyncio.sleep(0, result)
fast.sleep = no_wait
discord.http.asyncio = fast
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _run_bot(cwd: Path, *, retries_at_once: bool = False,
             **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")}
    env |= {"DISCORD_TOKEN": "secret-token-value", "UMTALI_DB_PATH": str(cwd / "u.sqlite3"),
            "PYTHONPATH": str(ROOT), **settings}
    wrapper = ["-c", RETRIES_AT_ONCE] if retries_at_once else []
    return subprocess.run([sys.executable, *wrapper, str(ROOT / "bot.py")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=90, check=False)


class _Failing(BaseHTTPRequestHandler):
    """A proxy that cannot reach Discord: 502 to every call, as proxy/server.mjs answers."""

    #: The paths of the calls answered, in order.
    answered: list[str]

    def _answer(self) -> None:
        self.answered.append(self.path)
        self.send_response(502)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_PATCH = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def failing_proxy() -> Iterator[tuple[str, list[str]]]:
    """Its base URL, and the paths of the calls it answered (502)."""
    answered: list[str] = []
    handler = type("_FailingHere", (_Failing,), {"answered": answered})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # Each connection's thread is waited for on close, so that its socket is closed by then,
    # not left to the garbage collector (whose ResourceWarning fails a later test).
    server.daemon_threads = False
    server.block_on_close = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v10", answered
    finally:
        server.shutdown()
        server.server_close()


def test_a_proxy_that_is_not_running_is_named(tmp_path: Path, closed_port: int) -> None:
    api = f"http://127.0.0.1:{closed_port}/api/v10"
    done = _run_bot(tmp_path, UMTALI_DISCORD_API=api)
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == (f"error: could not reach the REST proxy at UMTALI_DISCORD_API ({api}): "
                    "start it first (make proxy; see docs/scale.md), or correct or empty "
                    "UMTALI_DISCORD_API."), done.stderr
    assert "Traceback" not in done.stderr and "secret-token-value" not in done.stderr


def test_a_proxy_answering_502_ends_with_one_sentence(
        tmp_path: Path, failing_proxy: tuple[str, list[str]]) -> None:
    # discord.py tries a 502 five times (over some 25 s; here at once), then gives up.
    api, answered = failing_proxy
    done = _run_bot(tmp_path, retries_at_once=True, UMTALI_DISCORD_API=api)
    assert done.returncode == 1, done.stderr
    assert answered == ["/api/v10/users/@me"] * 5, answered
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: the REST proxy at UMTALI_DISCORD_API ({api}) "
                           "answered 502"), done.stderr
    assert "Traceback" not in done.stderr and "secret-token-value" not in done.stderr
