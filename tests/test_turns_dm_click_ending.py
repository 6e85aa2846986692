"""A move clicked on the DM panel whose answer is still being drawn when the match ends (the
opponent resigns, the clock runs out): the ending keeps the match's version, so the answer's
edit, marked as showing that version, stood for the ending's own edit. The ending was never
shown and the panel kept its buttons to play on. Over the loopback Discord, the answer's
drawing held until the match has ended."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.held_panels import HeldPanels
from tests.loopback.driver import custom_ids, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_fair_abandoned import live_of, mid_hand


async def test_an_ending_while_a_dm_click_is_answered_shows_on_the_panel(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        await mid_hand(server, db, saved.id, 2)
        svc = bot.matches
        assert svc is not None
        await svc.flush()
        live = live_of(bot, saved.id)
        seat = live.session.to_act
        member = live.player_ids[seat]
        panel_id = live.dm_message_ids[seat]
        prefix = f"umtali:m:{saved.id}:{live.version}:"

        def current() -> dict[str, Any] | None:
            shown = next(m for m in server.dm_messages(member) if int(m["id"]) == panel_id)
            return shown if any(c.startswith(prefix) for c in custom_ids(shown)) else None

        panel: dict[str, Any] = await until(current, "the DM panel at the match's version")
        # A move in the middle of the turn (a draw, a meld), on the panel.
        move = next(c for c in custom_ids(panel)
                    if c == prefix + "draw" or c.startswith(prefix + "lay:"))
        # The answer's panel is drawn only once the match has ended.
        panels = HeldPanels(monkeypatch, first_only=True)
        click = asyncio.ensure_future(server.click(member, panel, move))
        await until(lambda: bool(panels.held), "the answer's drawing under way")
        assert await svc.resign(live, 1 - seat)
        await svc.flush()  # the ending's own edits, made before the answer's
        panels.release()
        answered = await click
        assert answered.callback_type in (6, 7), answered.text()
        await svc.flush()

        def ended() -> dict[str, Any] | None:
            shown = next(m for m in server.dm_messages(member) if int(m["id"]) == panel_id)
            return shown if "Session over" in json.dumps(shown["embeds"]) else None

        shown: dict[str, Any] = await until(ended, "the ending on the DM panel")
        assert not [c for c in custom_ids(shown) if c.startswith(f"umtali:m:{saved.id}:")]
