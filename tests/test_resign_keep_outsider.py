"""The resign confirmation's Cancel carries only the match (anyone can send any custom id to a
bot's message): clicked by someone who does not play that match, it is answered privately
that the match is not theirs, not "Cancelled: you play on."."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged


async def test_a_cancel_from_someone_else_is_not_theirs(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        saved = await start_session(server, db, ada, ben)
        custom_id = f"umtali:m:{saved.id}:{saved.version}:keep"
        answer = await server.click(cy, forged(server, custom_id), custom_id)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert answer.callback["content"] == "This is not your match.", answer.text()
        # Its players still get the usual word.
        mine = await server.click(ada, forged(server, custom_id), custom_id)
        assert mine.callback["content"] == "Cancelled: you play on.", mine.text()
        after = read_match(db, saved.id)
        assert after is not None and after.version == saved.version
