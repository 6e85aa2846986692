"""review44: the "Yes" to resign that ends a match with no clock with no result when the
opponent has left the server (50da19a) asked whether the opponent is a member of the server the
click came from, not of the match's. The confirmation's id carries the match alone, and anyone
can send any custom id to a bot's message: the "Yes" sent from another server the bot is on
(one the player made, where the opponent never was) found the opponent "gone" and ended a match
the opponent was still playing with no result, sparing the player the rated loss of a
resignation. The loopback Discord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.loopback import payloads as p
from tests.loopback.driver import start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord


def _forged_in(server: LoopbackDiscord, guild_id: int, channel_id: int,
               custom_id: str) -> dict[str, object]:
    """A message of the bot's in another server's channel, with one button of ``custom_id``."""
    body = {"content": "", "components": [{"type": 1, "components": [
        {"type": 2, "custom_id": custom_id, "style": 4, "label": "Yes"}]}]}
    message = p.message(server.snowflake(), channel_id, server.bot_user, body, guild_id)
    server.messages[int(message["id"])] = message
    return message


async def test_a_yes_sent_from_another_server_is_a_resignation(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        # Another server of the bot's, there before it connects (in its READY).
        elsewhere, channel = server.add_guild("Chess Club")
        async with bot_in_process(server, db):
            ada, ben = server.add_member("ada"), server.add_member("ben")
            saved = await start_session(server, db, ada, ben, turn_timer=0)
            # ben is on the match's server, and was never on the other.
            server.fail("GET", rf"^/guilds/{elsewhere}/members/{ben}$", times=10**9,
                        status=404, code=10007)
            custom_id = f"umtali:m:{saved.id}:{saved.version}:loss:resign"
            answer = await server.click(ada, _forged_in(server, elsewhere, channel, custom_id),
                                        custom_id)
            assert "left the server" not in answer.text(), answer.text()
    with sqlite3.connect(db) as c:
        how = c.execute("SELECT how FROM matches WHERE id = ?", (saved.id,)).fetchone()[0]
    assert how == "resigned", how
