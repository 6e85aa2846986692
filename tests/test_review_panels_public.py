"""A hand's panel is only ever private: a click carrying a panel's id on a public message (a
forged id: anyone can send any custom id to a bot's message) is answered privately, and the
public message is never edited into the player's hand."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged


@pytest.mark.parametrize("action, kind, values, outsider", [
    ("{v}:draw", 2, None, False),
    ("order", 3, ["rank"], False),
    # The resign confirmation's buttons: its "Cancel" once edited whatever message it was on
    # into "Cancelled: you play on.", its buttons gone, whoever clicked.
    ("{v}:keep", 2, None, True),
    ("{v}:keep", 2, None, False),
    ("{v}:loss:resign", 2, None, False),
])
async def test_a_panel_id_on_a_public_message_never_shows_the_hand_there(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        action: str, kind: int, values: list[str] | None, outsider: bool) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben, variant="russian")
        seat = saved.session.to_act
        member = server.add_member("cy") if outsider else saved.player_ids[seat]
        custom_id = f"umtali:m:{saved.id}:" + action.format(v=saved.version)
        message: dict[str, Any] = forged(server, custom_id, kind=kind)
        answer = await server.click(member, message, custom_id, values)
        # Answered privately; the public message is as it was.
        assert answer.ephemeral, answer.text()
        assert answer.callback_type != 7, answer.text()
        public = server.messages[int(message["id"])]
        assert public["embeds"] == [{"title": "Umtali leaderboard · elsewhere"}], public
        said = json.dumps(public, ensure_ascii=False)
        assert "Your hand" not in said and "hand.png" not in said
        after = read_match(db, saved.id)
        assert after is not None
        assert after.version in (saved.version, saved.version + 1)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
