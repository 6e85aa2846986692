"""``/umtali display``: a member's panels without pictures, or with a four-colour deck; the
choice is saved, changes the hand on show at once, and leaves the other player's alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.pictures import HAND_FILE, draw_hand_png
from tests.loopback.driver import play_move, query, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server


async def test_display_choices_change_only_the_members_own_panels(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        await until(lambda: all(server.dm_messages(u) for u in (ada, ben)), "the hands")
        [ada_dm], [ben_dm] = server.dm_messages(ada), server.dm_messages(ben)
        ada_seat = saved.player_ids.index(ada)

        # Four colours: ada's hand is drawn so at once; ben's is as before.
        answer = await server.slash(ada, saved.channel_id, "umtali display",
                                    {"four_colour": True})
        assert answer.ephemeral and "four-colour" in answer.text()
        await until(lambda: server.attachment(ada_dm, HAND_FILE) == draw_hand_png(
            saved.session.view(ada_seat), four_colour=True), "ada's four-colour hand")
        assert server.attachment(ben_dm, HAND_FILE) == draw_hand_png(
            saved.session.view(1 - ada_seat))

        # No pictures: ada's panel keeps its text and loses its picture, and stays so as the
        # match goes on; ben's keeps his.
        answer = await server.slash(ada, saved.channel_id, "umtali display", {"pictures": False})
        assert answer.ephemeral and "text alone" in answer.text()
        await until(lambda: server.attachment(ada_dm, HAND_FILE) is None, "ada's text panel")
        for _ in range(4):
            await play_move(server, db, saved.id)
        now = read_match(db, saved.id)
        assert now is not None
        await until(lambda: server.attachment(ben_dm, HAND_FILE) == draw_hand_png(
            now.session.view(1 - ada_seat)), "ben's hand, still a picture")
        assert server.attachment(ada_dm, HAND_FILE) is None
        assert ada_dm["embeds"][0]["fields"], "the text stays"
        [prefs] = query(db, "SELECT * FROM member_prefs WHERE user_id = ?", ada)
        assert (prefs["pictures"], prefs["four_colour"]) == (0, 1)
