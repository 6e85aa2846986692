"""README, Hostile input: a forged "Claim the win" or "Keep waiting" on a match whose late
turns ask nobody, "(no turn timer, a practice)", changes nothing. tests/
test_forged_claim_untimed.py holds the untimed half alone. A practice by correspondence has
the very state the question answers in, while the computer is to act: no deadline (its turn
runs no clock), a clock whose turns run out ask. Its member, forging the question's id (the
match and its version), must not win a session the computer was in the middle of playing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import query, read_match, start_practice
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged
from umtali.players import GreedyPlayer


@pytest.mark.parametrize("action", ["claim", "wait"])
async def test_a_forged_time_up_answer_in_a_practice_by_correspondence_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, action: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        svc = bot.matches
        assert svc is not None
        await svc.store.change_guild_settings(server.guild_id,
                                              {"time_control": "correspondence"})
        # The computer held at its turn, as it is while it thinks (or during its pause).
        monkeypatch.setattr(svc.computers, "next", lambda live: None)
        ada = server.add_member("ada")
        saved = await start_practice(server, db, ada)
        live = svc.matches[saved.id]
        assert live.time_control == "correspondence" and live.computer_seat is not None
        while live.session.to_act != live.computer_seat:
            seat = live.session.to_act
            move = GreedyPlayer().choose(live.session.view(seat))
            outcome = await svc.act(live, ada, move, live.version)
            assert outcome.error is None, outcome.error
        await svc.flush()
        [row] = query(db, "SELECT deadline, version FROM matches WHERE id = ?", saved.id)
        assert row["deadline"] is None
        custom_id = f"umtali:m:{saved.id}:{row['version']}:{action}"
        answer = await server.click(ada, forged(server, custom_id), custom_id)
        assert answer.ephemeral and "no longer needed" in answer.text(), answer.text()
        after = read_match(db, saved.id)
        assert after is not None and after.status == "active", after and after.status
        [row] = query(db, "SELECT deadline FROM matches WHERE id = ?", saved.id)
        assert row["deadline"] is None
        assert not live.over
