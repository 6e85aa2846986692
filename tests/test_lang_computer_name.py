"""The practice computer's name is bot text, not a nickname: each reader sees it in their own
language. It was stored once, in the server's language, and shown so to everyone after: a
Russian member practising on an English server read "Computer (easy)" in their Russian hand
panel (and in their Russian stats), among Russian words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import custom_ids, read_match, start_practice, until
from tests.loopback.harness import russian_member_on_english_server


def _text(message: dict[str, Any]) -> str:
    """Everything a member reads in a message: its content and embeds."""
    return (message.get("content") or "") + json.dumps(message.get("embeds") or [],
                                                        ensure_ascii=False)


async def test_a_russian_member_reads_the_computers_name_in_russian_on_an_english_server(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with russian_member_on_english_server(monkeypatch, db) as (server, _, ada):
        saved = await start_practice(server, db, ada)
        assert saved.table_message_id is not None
        panel = await until(lambda: server.dm_messages(ada) and server.dm_messages(ada)[-1],
                            "the hand panel")
        private = _text(panel)
        # The public table stays in the server's language.
        table = server.messages[saved.table_message_id]
        public = _text(table)
        # Ended, the session is in the member's history (its text and its export menu).
        ask = await server.slash(ada, server.channel_id, "umtali resign", {})
        assert ask.response is not None
        yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
        await server.click(ada, ask.response, yes)
        await until(lambda: (m := read_match(db, saved.id)) is not None
                    and m.status == "finished", "the resignation")
        history = await server.slash(ada, server.channel_id, "umtali history", {})
        assert history.response is not None
        listed = json.dumps(history.response, ensure_ascii=False)
    assert "Computer (easy)" in public
    assert "Компьютер (лёгкий)" in private and "Computer" not in private, private
    assert "Компьютер (лёгкий)" in listed and "Computer" not in listed, listed


def test_a_russian_members_stats_name_the_computer_in_russian() -> None:
    """A practice played on an English server, in the Russian stats of its player."""
    from cogs.umtali.records import session_text
    from data.models import SessionLine
    from umtali.i18n import tr_for

    line = SessionLine(match_id=7, guild_id=1, player_ids=(99, 5),
                       names=("Computer (hard)", "Ада"), winner_seat=0, how="resigned",
                       games_won=(1, 0), variant="english", computer_level="hard",
                       finished_at=1.0e9)
    said = session_text(line, 5, tr_for("ru"))
    assert "Компьютер (сложный)" in said and "Computer" not in said, said
    assert "Computer (hard)" in session_text(line, 5)

