"""``/umtali display`` changes the hand on show at once: the open "My hand" panel too, not
only the DM panel."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.pictures import HAND_FILE
from tests.loopback.driver import start_session, until
from tests.loopback.harness import bot_in_process, loopback_server


async def test_display_changes_the_open_my_hand_panel_at_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        assert saved.table_message_id is not None
        table = server.messages[saved.table_message_id]
        opened = await server.click(ada, table, f"umtali:m:{saved.id}:hand")
        assert opened.ephemeral and opened.response is not None
        panel = opened.response
        assert server.attachment(panel, HAND_FILE) is not None
        answer = await server.slash(ada, saved.channel_id, "umtali display", {"pictures": False})
        assert answer.ephemeral and "text alone" in answer.text()
        await until(lambda: server.attachment(server.messages[int(panel["id"])],
                                              HAND_FILE) is None, "ada's panel as text",
                    timeout=5)
        assert server.messages[int(panel["id"])]["embeds"][0]["fields"], "the text stays"
