"""A start the gateway refuses once set up (Discord's 4014 for disallowed intents; here the
loopback's 4011, a close code discord.py ends the start with the same way) played nothing: its
closing line must not say that play was stopped cleanly (review168). Real bot.py, loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import until
from tests.loopback.harness import bot_process, loopback_server
from tests.test_startup import run_bot


async def test_a_start_the_gateway_refuses_does_not_read_as_a_clean_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with loopback_server(monkeypatch) as server:
        server.gateway.max_guilds_per_shard = 0  # every IDENTIFY refused
        status, err = await run_bot(server, tmp_path / "umtali.sqlite3", tmp_path)
        assert server.gateway.refused, err
    assert status != 0, err
    # Set up, but never accepted: "Ready to play" waits for the gateway's READY (fix186).
    assert "Ready to play" not in err, err
    closing = [line for line in err.splitlines() if " Closed" in line]
    assert len(closing) == 1 and closing[0].endswith(
        "Closed after an unfinished start: nothing was played; the database closed."), err


async def test_a_start_the_gateway_accepts_says_ready_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same start accepted: "Ready to play" once, after the gateway's READY (fix186).
    async with bot_process(monkeypatch, tmp_path) as (_, bot, _, _, _):
        await until(lambda: "Ready to play" in bot.log.read_text(errors="replace"),
                    "the ready line")
        status = await bot.stop()
    assert status == 0
    log = bot.log.read_text(errors="replace")
    assert log.count("Ready to play: 0 active match(es) restored.") == 1, log[-3000:]
