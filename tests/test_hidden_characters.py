"""A move padded with hidden characters gets a short answer: the engine quotes what it cannot
read with repr(), where each zero-width or bidi character takes six or more, so the bot gives
it only the visible text (a 6,002-character move once made an 18,000-character reply). What
it quotes back is escaped: markdown typed in a move shows as typed."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.options import unlimited


@pytest.mark.parametrize("move, said", [
    ("\u200b" * 3000 + "zz", "“zz” is not a move"),
    ("meld 8D " + "\u2066" * 1000 + "Q", "“Q” is not a card"),
    ("\U000e0001" * 90 + "x", "“x” is not a move"),
    ("\ufeff" * 5000, "No move given"),
    # Quoted back as typed (in the language's quotes), not as markdown.
    ("**loud** ||x||", "“\\*\\*loud\\*\\* \\|\\|x\\|\\|” is not a move"),
    ("meld 8D **Q**", "“\\*\\*Q\\*\\*” is not a card"),
])
async def test_hidden_characters_are_not_quoted(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        move: str, said: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        player = saved.player_ids[saved.session.to_act]
        # Longer than the synced command lets a client send: as an earlier version synced it.
        unlimited(server.commands, "umtali play", "move")
        answer = await server.slash(player, saved.channel_id, "umtali play", {"move": move})
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        content = answer.callback["content"]
        assert said in content and len(content) < 300, content
        assert "\\u" not in content and "Sorry" not in content
        assert not [c for c in server.calls if c.status == 400]
        after = read_match(db, saved.id)
        assert after is not None and after.version == saved.version
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
