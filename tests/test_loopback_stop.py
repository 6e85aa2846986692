"""Stopping: SIGTERM (systemd, ``docker stop``) closes the bot as cleanly as Ctrl-C does."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.loopback.driver import play_out, query, start_session
from tests.loopback.harness import bot_process


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_closes_the_bot_cleanly(
        sig: signal.Signals, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        played = await play_out(server, db, saved.id, moves=10)
        assert bot.proc is not None
        bot.proc.send_signal(sig)
        # Waited for in a thread: the server goes on answering the bot while it closes.
        status = await asyncio.to_thread(bot.proc.wait, 20)
    assert status == 0
    log = bot.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert "Closed: every move is saved and the database closed." in log, log[-3000:]
    # Closing the last connection folds the WAL into the database file and removes it; a
    # killed process leaves it behind.
    assert not db.with_name(db.name + "-wal").exists()
    moves = query(db, "SELECT count(*) AS n FROM moves WHERE match_id = ?", saved.id)
    assert moves[0]["n"] == played
