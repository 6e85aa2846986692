"""A DM panel edit still in flight when the match ends (cancelled, abandoned) must not stand
for the ending's own edit: it marked the panel shown at the match's version, which an ending
does not change, so the ending's edit was skipped and the panel kept its buttons to play on.
Over the loopback Discord, the panel's drawing held until the match has ended."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.held_panels import HeldPanels
from tests.loopback.driver import custom_ids, play_move, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_fair_abandoned import live_of, mid_hand, revealing, secrets_of


async def test_an_ending_edits_the_panels_after_an_edit_in_flight(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        await mid_hand(server, db, saved.id, 2)
        svc = bot.matches
        assert svc is not None
        await svc.flush()
        seed, _, _ = secrets_of(bot, saved.id)
        # The next move's panels are drawn only once the match has ended.
        panels = HeldPanels(monkeypatch)
        await play_move(server, db, saved.id)
        await until(lambda: bool(panels.held), "a panel's drawing under way")
        assert await svc.abandon(live_of(bot, saved.id), "cancelled")
        panels.stop()
        await asyncio.sleep(0.5)  # whatever the ending sends without waiting on the held
        panels.release()
        await svc.flush()
        for member in (alice, bob):
            panel: dict[str, Any] = await until(
                lambda m=member: revealing(server.dm_messages, m, seed),  # type: ignore[misc]
                "the ending on the DM panel")
            assert "cancelled" in json.dumps(panel["embeds"])
            assert custom_ids(panel) == [f"umtali:rf:{server.guild_id}:{saved.id}"]
