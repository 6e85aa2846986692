"""A rematch is of a session played to a result: a cancelled or abandoned match (no winner)
never showed a Rematch button, and a forged one gets the usual short answer, making no
challenge (it once posted "a rematch of session #N" for a session never played)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import query, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged


@pytest.mark.parametrize("how", ["cancelled", "abandoned"])
async def test_no_rematch_of_a_session_without_a_result(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        svc = bot.matches
        assert svc is not None
        assert await svc.abandon(svc.matches[saved.id], how)
        custom_id = f"umtali:rm:{saved.id}"
        answer = await server.click(ada, forged(server, custom_id), custom_id)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "cannot be played again here" in answer.callback["content"]
        assert [r["status"] for r in query(db, "SELECT status FROM challenges")] == ["cancelled"]
        assert not server.errors
