"""The pictures on the wire: the table message carries the spectator's picture, edited in place
with each turn; each hand's picture goes only to that player's DM."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.pictures import HAND_FILE, TABLE_FILE, draw_hand_png, draw_table_png
from tests.loopback.driver import custom_ids, play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from umtali.view import SPECTATOR


async def test_the_table_and_the_hands_carry_their_pictures(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("Алёша"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        await until(lambda: all(server.dm_messages(u) for u in (alice, bob)), "the hands")
        assert saved.table_message_id is not None
        names = ("Алёша", "ben") if saved.player_ids[0] == alice else ("ben", "Алёша")
        table = server.messages[saved.table_message_id]
        shown: set[bytes] = set()
        before = len(server.calls)
        moves = 0
        for _ in range(6):
            # A whole turn: the table is edited when a turn ends, not in its middle.
            while True:
                last = read_match(db, saved.id)
                assert last is not None
                await play_move(server, db, saved.id)
                moves += 1
                now = read_match(db, saved.id)
                assert now is not None
                if now.session.to_act != last.session.to_act:
                    break
            expected = draw_table_png(now.session.view(SPECTATOR), names)
            # The table is edited in place, its picture with it, to the position now.
            await until(lambda e=expected: server.attachment(table, TABLE_FILE) == e,  # type: ignore[misc]
                        "the table's picture")
            assert table["embeds"][0]["image"]["url"] == f"attachment://{TABLE_FILE}"
            assert [a["filename"] for a in table["attachments"]] == [TABLE_FILE]
            shown.add(expected)
        assert len(shown) > 1
        # Each DM panel shows its own player's hand, as that player sees it now.
        now = read_match(db, saved.id)
        assert now is not None
        for seat, user in enumerate(now.player_ids):
            [dm] = server.dm_messages(user)
            await until(lambda: server.attachment(dm, HAND_FILE)  # noqa: B023
                        == draw_hand_png(now.session.view(seat)), "the hand's picture")  # noqa: B023
        # The pictures ride on the calls a turn makes anyway (the announcement, the table's
        # edit, the DM panels): at most two a move besides the answers, one upload a table.
        others = [c for c in server.calls[before:] if "/interactions/" not in c.path
                  and "/webhooks/" not in c.path]
        # (plus, as in test_loopback_session, one DM panel edit for each move in the middle
        # of a turn, which keeps the DM panel in step with the one the player acts on).
        within = moves - 6
        assert len(others) <= 2 * moves + within, [(c.method, c.path) for c in others]
        edits = [c for c in others
                 if c.method == "PATCH" and c.path.endswith(f"/{saved.table_message_id}")]
        assert len(edits) >= 6
        assert all([name for name, _ in c.files] == [TABLE_FILE] for c in edits)
        # No public message carries a hand's picture.
        for message in server.channel_messages(saved.channel_id):
            assert server.attachment(message, HAND_FILE) is None


async def test_a_click_on_the_dm_panel_keeps_its_picture_current(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, variant="russian")
        seat = saved.session.to_act
        user = saved.player_ids[seat]
        draw = f"umtali:m:{saved.id}:0:draw"
        dm = await until(lambda: next((m for m in server.dm_messages(user)
                                       if draw in custom_ids(m)), None), "the hand's DM")
        await server.click(user, dm, draw)
        now = read_match(db, saved.id)
        assert now is not None and now.version == 1
        assert server.attachment(dm, HAND_FILE) == draw_hand_png(now.session.view(seat))
