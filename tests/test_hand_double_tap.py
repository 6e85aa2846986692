"""review153: **My hand** tapped twice at once (two devices, a phone's double tap): both
answers were sent, each panel read as the seat's before the other was kept, so one of them was
never known and never deleted: a second hand panel in the channel, never kept up to date,
offering moves of a version gone by. Now whichever is kept last takes the other's place and
deletes it: one panel. The loopback Discord, a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.loopback.driver import play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_in_time import at_a_draw, settled


async def test_two_taps_at_once_leave_one_hand_panel(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        assert saved.table_message_id is not None
        table = server.messages[saved.table_message_id]
        await settled(bot)
        hand = f"umtali:m:{saved.id}:hand"
        taps = await asyncio.gather(server.click(alice, table, hand),
                                    server.click(alice, table, hand))
        await until(lambda: not bot.in_flight.under_way, "both taps' handlers to end")
        await settled(bot)
        deleted = {t.token for t in taps for call in server.calls
                   if call.method == "DELETE" and t.token in call.path}
        kept = [t for t in taps if t.token not in deleted]
        assert len(kept) == 1, f"{len(kept)} hand panels left"
        # The one kept is the one kept up to date.
        await play_move(server, db, saved.id)
        await settled(bot)
        now = read_match(db, saved.id)
        assert now is not None
        panel = kept[0].messages[-1] if kept[0].callback_type == 7 else next(
            m for m in kept[0].messages if m.get("interaction_token") == kept[0].token)
        ids = [c.get("custom_id", "") for row in panel.get("components", [])
               for c in row.get("components", [])]
        assert any(f":{now.version}:" in i for i in ids), ids
        assert not server.errors


async def test_a_double_tap_on_a_dm_panel_plays_once_and_sends_no_second_panel(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The second tap finds the panel moved on: told so in a line, the DM panel itself brought
    up to date, not a second panel sent beside it showing the same hand."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved, user, panel, draw = await at_a_draw(server, db, await start_session(
            server, db, alice, bob))
        await settled(bot)
        taps = await asyncio.gather(server.click(user, panel, draw),
                                    server.click(user, panel, draw))
        await until(lambda: not bot.in_flight.under_way, "both taps' handlers to end")
        await settled(bot)
        now = read_match(db, saved.id)
        assert now is not None and now.version == saved.version + 1
        second = next(t for t in taps if t.callback_type == 4)  # the first updates the panel
        said = " ".join(str(m.get("content") or "") for m in (*second.messages,
                                                              *second.followups))
        assert "moved on" in said, said
        assert not any(m.get("components") or m.get("embeds")
                       for m in (*second.messages, *second.followups)), "a second panel"
        shown = server.messages[int(panel["id"])]
        ids = [c.get("custom_id", "") for row in shown.get("components", [])
               for c in row.get("components", [])]
        assert any(f":{now.version}:" in i for i in ids), ids
        assert not server.errors
