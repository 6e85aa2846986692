"""A practice match that ended with no result (abandoned after its deal) is listed in the
member's history with its deals file to choose; the practice computer there is bot text, in
the reader's language, as in the finished sessions above it (review29). It was named as stored,
in the server's language: a Russian member on an English server read "Computer (easy)" among
Russian words, in the line and in the menu's choice (review32)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.loopback.driver import custom_ids, start_practice
from tests.loopback.harness import russian_member_on_english_server

IN_RUSSIAN = "Компьютер (лёгкий)"


async def test_an_abandoned_practice_in_the_history_names_the_computer_in_the_readers_words(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with russian_member_on_english_server(monkeypatch, db) as (server, bot, ada):
        saved = await start_practice(server, db, ada)
        assert bot.matches is not None
        # Abandoned as a match with a player out of reach is (``abandon_if_unreachable``).
        assert await bot.matches.abandon(bot.matches.matches[saved.id])
        await bot.matches.flush()
        history = await server.slash(ada, server.channel_id, "umtali history", {})
        assert history.response is not None
        assert any(c.startswith("umtali:rp:") for c in custom_ids(history.response))
        said = json.dumps(history.response.get("embeds"), ensure_ascii=False)
        menu = json.dumps(history.response.get("components"), ensure_ascii=False)
    assert "abandoned" not in said, said  # (the reader's language: Russian)
    for shown in (said, menu):
        assert IN_RUSSIAN in shown and "Computer" not in shown, shown
