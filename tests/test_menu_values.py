"""A one-choice menu of moves (discard, lay) sent with several values (anyone can send any
values to a bot's menu) plays none of them: it is no choice the menu offered, and is refused
privately. The first value was played."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged


@pytest.mark.parametrize("action", ["discard", "lay"])
async def test_several_values_on_a_one_choice_menu_play_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        action: str) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        seat = saved.session.to_act
        legal = saved.session.view(seat).legal_moves
        two = [str(m) for m in legal][:2]
        assert len(two) == 2
        custom_id = f"umtali:m:{saved.id}:{saved.version}:{action}"
        answer = await server.click(saved.player_ids[seat], forged(server, custom_id, kind=3),
                                    custom_id, two)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "No move given" in answer.callback["content"], answer.text()
        after = read_match(db, saved.id)
        assert after is not None and after.version == saved.version
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
