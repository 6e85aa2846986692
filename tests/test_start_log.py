"""What a start says in the log: nothing the admin should not act on. discord.py warns at its
first client in a process that voice will not work (PyNaCl and davey not installed): this bot
plays no voice, so at every start (a deploy, a restart after a crash) the admin read two
WARNINGs asking, in effect, to install libraries it does not need."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest

from bot import make_bot
from settings import Settings


async def test_a_start_does_not_warn_of_voice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                         caplog: pytest.LogCaptureFixture) -> None:
    # As in a fresh process, before its first client (discord.py clears them as it warns).
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.WARNING)
    bot = make_bot(Settings(token="t", db_path=tmp_path / "umtali.sqlite3"), timers=False)
    try:
        warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert warned == []
    finally:
        await bot.close()
