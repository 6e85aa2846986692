"""The cut's modal submitted by a client that pushes on it: a custom id naming a challenge no
database holds (past SQLite's integers, or not digits at all) is answered privately, with no
ERROR logged and nothing started."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import custom_ids, query
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member


async def _shown_modal(server: LoopbackDiscord, challenger: int, opponent: int) -> Any:
    posted = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent)})
    assert posted.response is not None
    accept = next(c for c in custom_ids(posted.response) if c.endswith(":accept"))
    shown = await server.click(opponent, posted.response, accept)
    assert shown.callback_type == 9, shown.text()
    return shown


@pytest.mark.parametrize("forged", [
    "umtali:cutmodal:accept:99999999999999999999",  # past SQLite's 64-bit integers
    "umtali:cutmodal:practice:18446744073709551616",
    "umtali:cutmodal:accept:12x",
    "umtali:cutmodal:practice:",
    "umtali:cutmodal:draw:1",
])
async def test_a_submit_naming_no_challenge_is_answered_privately(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, forged: str) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        shown = await _shown_modal(server, ada, ben)
        tampered = dataclasses.replace(shown, callback={**shown.callback, "custom_id": forged})
        answered = await server.submit(ben, tampered, {"cut": "forged"}, timeout=10.0)
        assert answered.callback_type == 4 and answered.ephemeral, answered.text()
        assert "no longer" in answered.callback["content"], answered.callback
        assert query(db, "SELECT id FROM matches") == []
        [row] = query(db, "SELECT status FROM challenges")
        assert row["status"] == "open"
        assert not server.errors
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
