"""Running the real bot against the loopback server: in this process, or as a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import types
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot import Settings, UmtaliBot, make_bot
from scale import ShardPlan
from tests.loopback.server import LoopbackDiscord

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("launch.py")
#: The launcher reads the server's address from here.
URL_VAR = "UMTALI_LOOPBACK_URL"


def retries_at_once(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType) -> None:
    """discord.py's ``module`` (its HTTP client, its webhooks) tries again a request that got
    a 5xx five times over some 25 s: here at once."""
    fast = types.ModuleType("asyncio")
    fast.__dict__.update(asyncio.__dict__)

    async def no_wait(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(0, result)
    fast.sleep = no_wait  # type: ignore[attr-defined]
    monkeypatch.setattr(module, "asyncio", fast)


@contextlib.asynccontextmanager
async def loopback_server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopbackDiscord]:
    """A started server, with discord.py in this process pointed at it (undone afterwards).

    On the way out, any call the server did not know, or any protocol mistake the bot made,
    fails the test that caused it.
    """
    server = LoopbackDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.base_url)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(server.gateway_url))
    try:
        yield server
    finally:
        await server.close()
    assert not server.unknown, f"the bot made calls the server does not know: {server.unknown}"
    assert not server.errors, f"the bot broke the protocol: {server.errors}"


@contextlib.asynccontextmanager
async def bot_in_process(server: LoopbackDiscord, db_path: Path,
                         shards: ShardPlan | None = None,
                         dev_guild_id: int | None = None) -> AsyncIterator[UmtaliBot]:
    """The real ``UmtaliBot`` connected to ``server`` over sockets, closed afterwards; with
    ``shards``, the sharded bot running them (all connected before this returns); with
    ``dev_guild_id``, its commands synced to that server (``UMTALI_DEV_GUILD_ID``)."""
    bot = make_bot(Settings(token="loopback-token", db_path=db_path, shards=shards,
                            dev_guild_id=dev_guild_id),
                   timers=False, computer_pause=0)
    # discord.py waits this long after the last GUILD_CREATE before "ready" (2 s by default),
    # and 5 s before each IDENTIFY after a process's first (Discord's one IDENTIFY in 5 s).
    bot._connection.guild_ready_timeout = 0.05
    bot.before_identify_hook = _no_wait  # type: ignore[method-assign]
    identified = server.identifies
    connections = 1
    if shards is not None:
        connections = len(shards.ids) if shards.ids is not None else \
            shards.count or server.recommended_shards
    # Bot.close() unloads the extension, and discord.py then drops every ``cogs.umtali.*``
    # module from sys.modules; the next bot in this process would import fresh copies while
    # bot.py keeps the old MatchService class, and ``access.service()``'s isinstance check
    # would fail (and a later test's monkeypatch would patch the copies). Put the modules back,
    # as a fresh process would have them: those of before the start, in case the test closed
    # the bot itself.
    modules = {k: v for k, v in sys.modules.items() if k.startswith("cogs.umtali")}
    task = asyncio.create_task(bot.start("loopback-token"))
    try:
        await server.wait_connected(identified + connections)
        await asyncio.wait_for(bot.wait_until_ready(), 20)
        modules.update((k, v) for k, v in sys.modules.items() if k.startswith("cogs.umtali"))
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 20)
        sys.modules.update(modules)


async def _no_wait(shard_id: int | None, *, initial: bool = False) -> None:
    """No pause between a process's IDENTIFYs: the loopback does not limit them."""


class BotProcess:
    """``bot.py``'s ``main()`` in a subprocess, through ``tests/loopback/launch.py``."""

    def __init__(self, server: LoopbackDiscord, db_path: Path, workdir: Path,
                 env: dict[str, str] | None = None, connections: int = 1) -> None:
        self.server, self.db_path, self.workdir = server, db_path, workdir
        #: More settings (UMTALI_SHARD_COUNT, ...), and the gateway sessions they open.
        self.env, self.connections = env or {}, connections
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / "bot.log"

    async def start(self, wait: bool = True) -> None:
        env = {**os.environ, "DISCORD_TOKEN": "loopback-token",
               "UMTALI_DB_PATH": str(self.db_path), URL_VAR: f"http://127.0.0.1:{self.server.port}",
               "UMTALI_LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT)}
        for name in ("UMTALI_DEV_GUILD_ID", "UMTALI_SHARD_COUNT", "UMTALI_SHARD_IDS",
                     "UMTALI_DISCORD_API"):
            env.pop(name, None)
        env.update(self.env)
        identified = self.server.identifies
        with self.log.open("ab") as out:
            # The working directory has no .env, so only this environment counts.
            self.proc = subprocess.Popen([sys.executable, str(LAUNCHER)], cwd=self.workdir,
                                         env=env, stdout=out, stderr=subprocess.STDOUT)
        if wait:
            await self.server.wait_connected(identified + self.connections, timeout=30)

    async def run_to_exit(self, timeout: float = 30) -> int:
        """Start the bot and wait for it to end by itself: its exit status."""
        await self.start(wait=False)
        assert self.proc is not None
        proc = self.proc

        async def ended() -> int:
            while (code := proc.poll()) is None:
                await asyncio.sleep(0.05)
            return code
        return await asyncio.wait_for(ended(), timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when a machine loses power."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    async def stop(self) -> int | None:
        """SIGTERM (SIGKILL after 10 s), and the exit status. Waited for in a thread: a bot
        closing finishes what it has under way, and the loopback in this process must go on
        answering it meanwhile."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.terminate()
        try:
            return await asyncio.to_thread(self.proc.wait, 10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return await asyncio.to_thread(self.proc.wait, 10)


@contextlib.asynccontextmanager
async def bot_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[
        tuple[LoopbackDiscord, BotProcess, Path, int, int]]:
    """The server, the bot in its own process (stopped on the way out), its database, and
    two members."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        bot = BotProcess(server, db, tmp_path)
        try:
            await bot.start()
            yield server, bot, db, alice, bob
        finally:
            await bot.stop()


@contextlib.asynccontextmanager
async def russian_member_on_english_server(
        monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> AsyncIterator[tuple[LoopbackDiscord, UmtaliBot, int]]:
    """The bot on an English server where one member, Ада, has Discord in Russian: the
    server, the bot and her id (words shown to her alone are hers, public ones the server's)."""
    async with loopback_server(monkeypatch) as server:
        server.guild_locale = "en-US"
        async with bot_in_process(server, db_path) as bot:
            ada = server.add_member("Ада")
            server.locales[ada] = "ru"
            yield server, bot, ada
