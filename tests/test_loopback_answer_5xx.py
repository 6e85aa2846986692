"""Discord failing for a moment (a 503) as the bot answers a click whose move was saved: the
move stands, the player is told what may have happened, and the DM panel is brought to the
match as it is by the bot's own edit. A failure of Discord's is no bug of ours: a warning in
the log, not an ERROR (an admin's ERROR is a bug to report)."""

from __future__ import annotations

import logging
from pathlib import Path

import discord.webhook.async_
import pytest

from tests.loopback.driver import custom_ids, play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server, retries_at_once


async def test_a_503_on_a_clicks_answer_is_a_warning_and_the_panel_catches_up(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    retries_at_once(monkeypatch, discord.webhook.async_)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        while saved.session.view(0).phase != "draw":  # to a turn's start
            await play_move(server, db, saved.id)
            saved = read_match(db, saved.id)  # type: ignore[assignment]
        member = (ada, ben)[saved.session.to_act]
        draw = f"umtali:m:{saved.id}:{saved.version}:draw"
        panel = await until(lambda: next((m for m in reversed(server.dm_messages(member))
                                          if draw in custom_ids(m)), None), "the DM panel")
        server.fail("POST", r"^/interactions/\d+/[^/]+/callback$", status=503, times=5)
        with caplog.at_level(logging.WARNING):
            clicked = await server.click(member, panel, draw)
            drawn = read_match(db, saved.id)
            assert drawn is not None and drawn.version == saved.version + 1

            def caught_up() -> bool:
                shown = server.messages.get(int(panel["id"])) or {}
                return any(f":{drawn.version}:" in c for c in custom_ids(shown))
            await until(caught_up, "the DM panel at the draw")
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
            [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("Discord" in r.getMessage() and r.levelno == logging.WARNING
                   for r in caplog.records)
        # Told, privately, that Discord failed and what to look at (if it still can be).
        assert clicked.ephemeral and "Discord failed" in clicked.text(), clicked.text()
