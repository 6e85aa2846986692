"""A forged "Claim the win" on a match whose clock is not running. A match with no turn timer
has no deadline (``deadline`` None), the very state of a correspondence turn whose time is up;
the time-up question's id is the match and its version alone, and anyone can send any custom
id to a bot's message. The waiting player sent it and won the session, rated, as "timed out",
with no clock ever set; "Keep waiting" forged set a clock running on a match that has none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import query, read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged


@pytest.mark.parametrize("action", ["claim", "wait"])
async def test_a_forged_time_up_answer_on_an_untimed_match_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, action: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = (server.add_member(n) for n in ("ada", "ben"))
        saved = await start_session(server, db, ada, ben, turn_timer=0)
        [row] = query(db, "SELECT deadline FROM matches WHERE id = ?", saved.id)
        assert row["deadline"] is None
        absent = saved.session.to_act
        waiting = saved.player_ids[1 - absent]
        custom_id = f"umtali:m:{saved.id}:{saved.version}:{action}"
        answer = await server.click(waiting, forged(server, custom_id), custom_id)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "no longer needed" in answer.callback["content"], answer.text()
        after = read_match(db, saved.id)
        assert after is not None and after.status == "active", after and after.status
        [row] = query(db, "SELECT deadline FROM matches WHERE id = ?", saved.id)
        assert row["deadline"] is None
