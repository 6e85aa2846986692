"""The practice computer's name is bot text, shown to each reader in their own language
(test_lang_computer_name holds the panel, stats and history list to it). Its other private
words named it as stored, in the server's language: a Russian member practising on an English
server read "Computer (easy)" among Russian words when told it was not their turn, when they
resigned, on their replay file and its message, by the correspondence reminder and when the
bot left the server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.reminders import turn_warning
from tests.loopback.driver import custom_ids, play_move, read_match, start_practice, until
from tests.loopback.harness import russian_member_on_english_server

IN_RUSSIAN = "Компьютер (лёгкий)"


def _said(messages: list[dict[str, Any]]) -> str:
    return json.dumps([(m.get("content"), m.get("embeds")) for m in messages],
                      ensure_ascii=False)


async def test_not_your_turn_resigned_and_the_replay_name_the_computer_in_the_readers_words(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with russian_member_on_english_server(monkeypatch, db) as (server, bot, ada):
        saved = await start_practice(server, db, ada)
        assert bot.matches is not None
        # The computer takes its pause before its turn, as it does on a live bot.
        bot.matches.computers.pause = 30
        seat = saved.player_ids.index(ada)
        while (now := read_match(db, saved.id)) is not None and now.session.to_act == seat:
            await play_move(server, db, saved.id)
        early = await server.slash(ada, saved.channel_id, "umtali play", {"move": "draw"})
        ask = await server.slash(ada, saved.channel_id, "umtali resign", {})
        assert ask.response is not None
        yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
        resigned = await server.click(ada, ask.response, yes)
        await until(lambda: (m := read_match(db, saved.id)) is not None
                    and m.status == "finished", "the resignation")
        history = await server.slash(ada, server.channel_id, "umtali history", {})
        assert history.response is not None
        menu = next(c for c in custom_ids(history.response) if c.startswith("umtali:rp:"))
        replay = await server.click(ada, history.response, menu, values=[str(saved.id)])
        sent = await until(lambda: [m for m in replay.messages + replay.followups
                                    if m.get("attachments")], "the replay file")
        [header] = [server.attachment(sent[0], a["filename"]) for a in sent[0]["attachments"]
                    if a["filename"].endswith(".txt")]
    assert header is not None
    for said in (early.text(), resigned.text(), _said(sent), header.decode()):
        assert IN_RUSSIAN in said and "Computer" not in said, said


async def test_the_reminder_and_the_removal_name_the_computer_in_the_readers_words(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with russian_member_on_english_server(monkeypatch, db) as (server, bot, ada):
        admin = await server.slash(ada, server.channel_id, "umtali-admin settings",
                                   {"time_control": "correspondence"})
        assert admin.ephemeral, admin.text()
        saved = await start_practice(server, db, ada)
        assert bot.matches is not None
        live = bot.matches.matches[saved.id]
        seat = saved.player_ids.index(ada)
        await until(lambda: live.session.to_act == seat, "the member's turn")
        before = len(server.dm_messages(ada))
        # Two hours before the turn's end (the clock's check, called as it calls it).
        await turn_warning(bot.matches, live, seat, 7200)
        await until(lambda: any("Напоминание" in (m.get("content") or "")
                                for m in server.dm_messages(ada)[before:]), "the reminder")
        reminded = _said(server.dm_messages(ada)[before:])
        before = len(server.dm_messages(ada))
        await server.remove_bot(server.guild_id)
        await until(lambda: any(m.get("content") for m in server.dm_messages(ada)[before:]),
                    "the removal's DM")
        removed = _said([m for m in server.dm_messages(ada)[before:] if m.get("content")])
    for said in (reminded, removed):
        assert IN_RUSSIAN in said and "Computer" not in said, said
