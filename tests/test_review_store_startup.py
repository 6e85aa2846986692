"""Start-up whose command sync Discord refuses (a test server the bot is not in, named by a
mistyped UMTALI_DEV_GUILD_ID): one ERROR line saying what to check, and the bot runs on.
Before, the 403 ended the bot at start with a traceback."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.loopback.harness import BotProcess, loopback_server


async def test_a_sync_refused_by_discord_is_said_once_and_the_bot_runs_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        server.fail("PUT", r"/applications/[0-9]+/guilds/[0-9]+/commands", times=5, status=403,
                    code=50001)
        bot = BotProcess(server, db, tmp_path, env={"UMTALI_DEV_GUILD_ID": "123456789012345678"})
        try:
            await bot.start()  # connected to the gateway: it did not stop at the refusal
            await asyncio.sleep(0.5)
            assert bot.proc is not None and bot.proc.poll() is None
        finally:
            await bot.stop()
    log = bot.log.read_text()
    assert "Traceback" not in log, log
    [line] = [line for line in log.splitlines() if " ERROR " in line]
    assert ("slash commands could not be synced to the server 123456789012345678 "
            "(UMTALI_DEV_GUILD_ID): Discord refused") in line, log
