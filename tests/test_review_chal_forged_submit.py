"""A cut's modal submitted with a custom id forged to name another of the member's challenges
(or practice sessions) than the one whose message it was opened from: answered privately, as a
forged id is everywhere, and nothing is started or edited. Before, the challenge named was
accepted, and the message the modal came from (another challenge's, still open) was edited to
say so, its buttons taken away and the match's thread made from it; the accepted challenge's
own message kept its buttons. On the loopback Discord, a real SQLite file."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import custom_ids, query
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member


async def _challenge(server: LoopbackDiscord, challenger: int, opponent: int) -> dict[str, Any]:
    posted = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent)})
    assert posted.response is not None and not posted.ephemeral, posted.text()
    return posted.response


async def test_an_accept_forged_onto_another_challenges_message_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        first = await _challenge(server, cy, ben)
        second = await _challenge(server, ada, ben)
        accept = next(c for c in custom_ids(second) if c.endswith(":accept"))
        shown = await server.click(ben, second, accept)
        assert shown.callback_type == 9, shown.text()
        [first_id] = [r["id"] for r in query(db, "SELECT id FROM challenges WHERE "
                                                 "message_id = ?", int(first["id"]))]
        tampered = dataclasses.replace(shown, callback={
            **shown.callback, "custom_id": f"umtali:cutmodal:accept:{first_id}"})
        answered = await server.submit(ben, tampered, {"cut": "forged"}, timeout=10.0)
        assert answered.callback_type == 4 and answered.ephemeral, answered.text()
        assert "no longer open" in answered.callback["content"], answered.callback
        assert query(db, "SELECT id FROM matches") == []
        assert [r["status"] for r in query(db, "SELECT status FROM challenges")] == \
            ["open", "open"]
        for message in (first, second):
            assert custom_ids(server.messages[int(message["id"])]), "buttons kept"
        assert not server.threads() and not server.errors
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


async def test_a_cut_forged_onto_a_challenges_message_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # ada, challenged by ben, submits the modal of the challenge's Accept with the id of her
    # own practice session waiting for its cut.
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        challenged = await _challenge(server, ben, ada)
        offered = await server.slash(ada, server.channel_id, "umtali practice", {})
        assert offered.response is not None and not offered.ephemeral, offered.text()
        [practice_id] = [r["id"] for r in query(
            db, "SELECT id FROM challenges WHERE computer_level IS NOT NULL")]
        accept = next(c for c in custom_ids(challenged) if c.endswith(":accept"))
        shown = await server.click(ada, challenged, accept)
        assert shown.callback_type == 9, shown.text()
        tampered = dataclasses.replace(shown, callback={
            **shown.callback, "custom_id": f"umtali:cutmodal:practice:{practice_id}"})
        answered = await server.submit(ada, tampered, {"cut": "forged"}, timeout=10.0)
        assert answered.callback_type == 4 and answered.ephemeral, answered.text()
        assert "no longer waiting" in answered.callback["content"], answered.callback
        assert query(db, "SELECT id FROM matches") == []
        assert [r["status"] for r in query(db, "SELECT status FROM challenges")] == \
            ["open", "open"]
        for message in (challenged, offered.response):
            assert custom_ids(server.messages[int(message["id"])]), "buttons kept"
        assert not server.errors
