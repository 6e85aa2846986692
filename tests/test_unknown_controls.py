"""A button, menu or modal whose custom id no control of this bot's reads: a negative or
otherwise malformed id (anyone can send any custom id to a bot's message), or a control of an
older version whose id this one no longer knows. discord.py drops such an interaction
unanswered, and the member's Discord says only "This interaction failed" after three seconds:
it gets a short private answer instead, and changes nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.loopback import acting
from tests.loopback.driver import query, read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged

SAID = "That button or menu is out of date: nothing was changed."


@pytest.mark.parametrize("custom_id, kind", [
    ("umtali:m:-1:hand", 2),
    ("umtali:m:{match}:-5:draw", 2),
    ("umtali:rm:-3", 2),
    ("umtali:m:{match}:{version}:bogus", 2),
    ("umtali:m:{match}:{version}:discard:extra", 3),
    ("umtali:somethingold:7", 3),
    ("not-ours", 2),
])
async def test_an_unknown_control_gets_a_short_answer(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        custom_id: str, kind: int) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        custom_id = custom_id.format(match=saved.id, version=saved.version)
        message = forged(server, custom_id, kind=kind)
        posted = len(server.channel_messages(saved.channel_id))
        player = saved.player_ids[saved.session.to_act]
        answer = await server.click(player, message, custom_id,
                                    ["discard 8D"] if kind == 3 else None, timeout=5)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert answer.callback["content"] == SAID
        # The message clicked is left alone, nothing is posted, and the match is as it was.
        assert not [c for c in server.calls if str(message["id"]) in c.path]
        assert len(server.channel_messages(saved.channel_id)) == posted
        after = read_match(db, saved.id)
        assert after is not None and after.version == saved.version
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


async def test_an_unknown_modal_gets_a_short_answer(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada = server.add_member("ada")
        server.locales[ada] = "ru"
        record = acting._base(server, acting.MODAL_SUBMIT, ada, server.channel_id)
        record.payload["data"] = {"custom_id": "umtali:oldmodal:1", "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "x", "value": "hi"}]}]}
        answer = await acting._send(server, record, 5)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert answer.callback["content"] == \
            "Эта кнопка или меню устарели: ничего не изменилось."
        assert not query(db, "SELECT id FROM challenges")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
