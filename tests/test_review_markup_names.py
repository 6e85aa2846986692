"""A name written as Discord's other markup stays a name: ``<t:0:R>`` is drawn as a date
("56 years ago"), ``<:x:id>`` as any server's custom emoji (an image), ``<id:customize>`` as
a link into the server's settings. Like a mention or a link, it is broken with a zero-width
space after "<", and shows the same text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.umtali.names import echo, safe_name
from tests.loopback.driver import play_out, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_hostile_names import sent, texts

#: What Discord draws as something other than its text: a timestamp, a custom emoji (still or
#: animated), a link into the server's own pages, a soundboard sound.
MARKUP = re.compile(r"<(?:t:-?[0-9]+(?::[a-zA-Z])?|a?:\w+:[0-9]+|id:[\w-]+|sound:[0-9:]+)>")

NAMES = ["<t:0:R>", "<t:1700000000:F>", "<:pepe:123456789012345678>", "<a:spin:1>",
         "<id:customize>", "<sound:1:2>"]


@pytest.mark.parametrize("name", NAMES)
def test_markup_in_a_name_is_broken(name: str) -> None:
    for shown in (safe_name(name), echo(name)):
        assert not MARKUP.search(shown), shown
        assert shown.replace("\u200b", "").replace("\\", "") == name


def test_a_colon_in_a_name_is_left_alone() -> None:
    assert safe_name("ada 10:30 <3") == "ada 10:30 <3"


@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_markup_name_shows_as_text_in_the_match(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path, locale: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        server.guild_locales[server.guild_id] = locale
        ada = server.add_member("<t:0:R> <:pepe:123456789012345678>")
        ben = server.add_member("<id:customize>")
        saved = await start_session(server, db, ada, ben)
        await play_out(server, db, saved.id, moves=6)
        table = await server.slash(ben, saved.channel_id, "umtali table")
        assert not table.ephemeral, table.text()
        shown = [(call.path, where, text) for call, body in sent(server)
                 for where, text in texts(body) if where != "label"]
        # The bot's own markup stays (a turn's end, "<t:...:R>"); the names' never shows live.
        assert any("<\u200bt:0:R> <\u200b:pepe:" in text for _, _, text in shown)
        assert any("<\u200bid:customize>" in text for _, _, text in shown)
        live = [(path, where, text) for path, where, text in shown
                if any(raw in text for raw in ("<t:0:R>", "<:pepe:", "<id:customize>"))]
        assert not live, live[:3]
