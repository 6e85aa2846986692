"""Echoed input is cut short: a reply that quotes what a member typed stays within Discord's
2,000 characters, so it goes out instead of failing (and logging an error)."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest
from discord import app_commands

from cogs.umtali.errors import message_for
from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.options import unlimited


@pytest.mark.parametrize("move", ["x" * 2100, "meld " + "Q" * 2100, "@everyone " * 210])
async def test_a_huge_unknown_move_gets_a_short_answer(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        move: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        player = saved.player_ids[saved.session.to_act]
        # Longer than the synced command lets a client send: as an earlier version synced it.
        unlimited(server.commands, "umtali play", "move")
        answer = await server.slash(player, saved.channel_id, "umtali play", {"move": move})
        assert answer.callback_type == 4 and answer.ephemeral
        content = answer.callback["content"]
        assert len(content) <= 2000 and "is not a move" in content, content
        assert "…" in content and "Sorry" not in content
        assert not [c for c in server.calls if c.status == 400]
        after = read_match(db, saved.id)
        assert after is not None and after.version == saved.version
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


def test_an_unreadable_option_is_quoted_short() -> None:
    error = app_commands.TransformerError("y" * 3000, discord.AppCommandOptionType.string,
                                           app_commands.Transformer())
    text = message_for(error)
    assert text is not None and len(text) < 200 and "…" in text
