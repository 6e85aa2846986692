"""A nickname that is a link stays text: Discord makes ``https://...`` (and ``<scheme:/...>``)
a clickable link, previewed in a message, and names are shown on every turn. A zero-width
space between ":" and "/" (as after "@" for mentions) breaks the link and shows the same
text; the markdown inside what was a link is escaped like any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.names import echo, label_name, safe_name
from tests.loopback.driver import play_out, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_hostile_names import sent, texts

URL = "https://evil.example/x_y_"


@pytest.mark.parametrize("name, shown", [
    (URL, "https:\u200b//evil.example/x\\_y\\_"),
    ("<https://evil.example/x>", "<https:\u200b//evil.example/x>"),
    ("steam://run/1", "steam:\u200b//run/1"),
    ("[site](http://e.x)", "\\[site](http:\u200b//e.x)"),
    ("ada 10:30", "ada 10:30"),
])
def test_a_link_in_a_name_is_broken(name: str, shown: str) -> None:
    assert safe_name(name) == shown
    assert "://" not in echo(name) and ":/" not in safe_name(name)


def test_plain_text_keeps_the_name_as_typed() -> None:
    # Menu labels and thread names are not made links by Discord.
    assert label_name(URL) == URL


async def test_a_link_name_shows_as_text_in_the_match(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        evil, ben = server.add_member(URL), server.add_member("ben")
        saved = await start_session(server, db, evil, ben)
        await play_out(server, db, saved.id, moves=6)
        shown = [text for _, body in sent(server) for where, text in texts(body)
                 if where != "label"]
        assert any("https:\u200b//evil.example/x\\_y\\_" in t for t in shown)
        assert not [t for t in shown if "evil.example" in t and "://" in t]
