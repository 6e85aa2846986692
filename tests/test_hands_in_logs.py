"""No player's cards in the log, even at ``UMTALI_LOG_LEVEL=DEBUG``: discord.py's DEBUG lines
hold every request's body and every gateway event whole (DM panels, and the clicks on them),
so ``bot.main`` keeps those loggers at INFO (``private_log_levels``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from settings import PRIVATE_AT_DEBUG, private_log_levels
from tests.test_fair_abandoned import a_match_mid_hand


def strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


@pytest.fixture
def debug_as_main_sets_it() -> Iterator[None]:
    levels = {name: logging.getLogger(name).level for name in PRIVATE_AT_DEBUG}
    private_log_levels("DEBUG")
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.mark.usefixtures("debug_as_main_sets_it")
async def test_no_hand_is_logged_even_at_debug(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with a_match_mid_hand(monkeypatch, tmp_path) as mid:
        server, live, (alice, bob) = mid.server, mid.live, mid.members
        public = {s for channel in server.channels if channel not in server.dms.values()
                  for m in server.channel_messages(channel) for s in strings(m)}
        # What the DM panels say that no public message does: the hands.
        private = {s for member in (alice, bob) for m in server.dm_messages(member)
                   for s in strings(m.get("embeds", [])) if len(s) >= 12 and s not in public}
        assert private, "the DM panels show the hands"
        assert not live.over
    assert any(r.levelno == logging.DEBUG for r in caplog.records)  # DEBUG is on
    logged = "\n".join(r.getMessage() for r in caplog.records)
    leaked = [s[:80] for s in private if s in logged]
    assert not leaked, leaked


@pytest.mark.usefixtures("debug_as_main_sets_it")
async def test_no_interaction_token_is_logged_even_at_debug(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """An interaction's token lets whoever holds it answer as the bot for 15 minutes: discord.py
    logs each answer's URL, token and all, at DEBUG (``discord.webhook.async_``)."""
    caplog.set_level(logging.DEBUG)
    async with a_match_mid_hand(monkeypatch, tmp_path) as mid:
        tokens = set(mid.server.interactions)
        assert tokens, "the players clicked"
    assert any(r.levelno == logging.DEBUG for r in caplog.records)  # DEBUG is on
    # (the loopback Discord's own access log names the URLs it was sent: not the bot's)
    logged = "\n".join(f"{r.name}: {r.getMessage()}" for r in caplog.records
                       if not r.name.startswith(("aiohttp.access", "tests.")))
    leaked = sorted(t for t in tokens if t in logged)
    assert not leaked, [line for line in logged.splitlines() if leaked[0] in line][:2]
