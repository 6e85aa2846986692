"""Forged component ids: anyone can send any custom id to a bot's message. An id past SQLite's
64-bit integers, or a menu value of digits that are not ASCII ("²"), gets the usual short
private answer and changes nothing; it once raised ``OverflowError`` (or ``ValueError`` before
the guard) and logged an error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cogs.umtali.ids import MAX_ID, id_of
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged

BIG = "9" * 40
#: Just past the database's largest integer: fits in 19 digits, not in 64 bits.
PAST = str(MAX_ID + 1)
KEPT = "not kept on this server"


@pytest.mark.parametrize("custom_id, kind, values, said", [
    ("umtali:rf:{g}:" + BIG, 2, None, KEPT),
    ("umtali:rf:{g}:" + PAST, 2, None, KEPT),
    ("umtali:rf:" + BIG + ":1", 2, None, KEPT),
    ("umtali:rp:{g}", 3, [BIG], KEPT),
    ("umtali:rp:{g}", 3, ["²"], KEPT),
    ("umtali:rp:{g}", 3, ["١٢"], KEPT),
    ("umtali:m:" + BIG + ":hand", 2, None, "This match is over."),
    ("umtali:m:" + PAST + ":hand", 2, None, "This match is over."),
    ("umtali:m:" + BIG + ":1:draw", 2, None, "This match is over."),
    ("umtali:m:" + BIG + ":order", 3, ["suit"], "This match is over."),
    ("umtali:m:" + BIG + ":hint", 2, None, "This match is over."),
    ("umtali:c:" + BIG + ":1:2:accept", 2, None, "Only the challenged member"),
    ("umtali:rm:" + BIG, 2, None, "cannot be played again here"),
    ("umtali:lb:{g}:server:" + BIG, 2, None, None),
])
async def test_a_forged_id_gets_a_short_answer(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        custom_id: str, kind: int, values: list[str] | None, said: str | None) -> None:
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        member = server.add_member("ada")
        custom_id = custom_id.format(g=server.guild_id)
        message = forged(server, custom_id, kind=kind)
        answer = await server.click(member, message, custom_id, values)
        if said is None:
            # A board page past the end shows the last page.
            assert answer.callback_type == 7, answer.text()
        else:
            assert answer.callback_type == 4 and answer.ephemeral, answer.text()
            content = answer.callback["content"]
            assert said in content and "Sorry" not in content, content
        assert not [c for c in server.calls if c.status >= 400]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records


def test_an_id_is_ascii_digits_within_64_bits() -> None:
    assert id_of("123") == 123 and id_of(str(MAX_ID)) == MAX_ID
    assert id_of(PAST) == id_of(BIG) == id_of("²") == id_of("١٢") == id_of("") == 0
