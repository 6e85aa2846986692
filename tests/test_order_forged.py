"""The hand-order menu's value is the client's word: a value no order has (forged, or a choice
an older version offered) is refused privately and changes nothing. It was read as the
default, by suit, and saved as the member's choice over the one they had made."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.loopback.driver import query, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged


async def test_an_order_no_menu_offers_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        custom_id = f"umtali:m:{saved.id}:order"
        chose = await server.click(ada, forged(server, custom_id, kind=3), custom_id, ["rank"])
        assert chose.ephemeral, chose.text()

        def order() -> list[str]:
            return [r["hand_order"] for r in query(
                db, "SELECT hand_order FROM member_prefs WHERE user_id = ?", ada)]
        assert order() == ["rank"]
        for values in (["zz"], ["SUIT"], [""], ["rank", "suit"], []):
            answer = await server.click(ada, forged(server, custom_id, kind=3), custom_id,
                                        values)
            assert answer.callback_type == 4 and answer.ephemeral, (values, answer.text())
            assert "out of date" in answer.callback["content"], (values, answer.text())
            assert order() == ["rank"], values
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
