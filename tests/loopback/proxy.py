"""The project's REST proxy (proxy/server.mjs, @discordjs/proxy) in front of a loopback Discord.

It is installed from proxy/package-lock.json on first use (``npm ci``, as ``make proxy``
does); without node and npm, or when the install fails, the test using it is skipped and says
why.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import subprocess
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from tests.loopback.server import LoopbackDiscord

PROXY_DIR = Path(__file__).resolve().parents[2] / "proxy"
INSTALLED = PROXY_DIR / "node_modules" / "@discordjs" / "proxy" / "package.json"


def install() -> str:
    """The path of node, the proxy installed; skips the test when it cannot be had."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("the REST proxy needs node and npm (node 18.17 or later), not found on PATH")
    # The test workers (make test runs several) share proxy/: one installs it while the others
    # wait, under a lock on the directory; two ``npm ci`` at once wipe each other's work.
    held = os.open(PROXY_DIR, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not INSTALLED.exists():
            done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PROXY_DIR,
                                  capture_output=True, text=True, timeout=600, check=False)
            if done.returncode != 0 or not INSTALLED.exists():
                said = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
                pytest.skip("the REST proxy could not be installed (npm ci in proxy/): "
                            f"{said[0]}")
    finally:
        os.close(held)  # the lock with it
    return node


@contextlib.asynccontextmanager
async def rest_proxy(server: LoopbackDiscord, per_second: int, log: Path,
                     settings: Mapping[str, str] | None = None) -> AsyncIterator[str]:
    """The proxy forwarding to ``server`` within ``per_second`` requests a second, writing to
    ``log``: the base URL to give the bot as UMTALI_DISCORD_API. Stopped on the way out.
    ``settings``: its environment's settings as an admin would give them, over those."""
    node = install()
    env = {**os.environ, "PORT": "0", "HOST": "127.0.0.1",
           "DISCORD_API": f"http://127.0.0.1:{server.port}/api",
           "GLOBAL_PER_SECOND": str(per_second), **(settings or {})}
    with log.open("ab") as out:
        proc = subprocess.Popen([node, str(PROXY_DIR / "server.mjs")], env=env,
                                stdout=out, stderr=subprocess.STDOUT)

    async def listening() -> str:
        while not (said := log.read_text()).endswith("\n"):
            assert proc.poll() is None, f"the proxy did not start: {said!r}"
            await asyncio.sleep(0.05)
        return said.splitlines()[0]
    try:
        line = await asyncio.wait_for(listening(), 30)
        assert line.startswith("Listening on "), f"the proxy did not start: {line!r}"
        yield line.split()[2].rstrip(",")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
