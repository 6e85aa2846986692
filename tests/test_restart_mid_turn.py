"""The bot killed after a move in the middle of a turn (a draw typed with ``/umtali play``) was
saved, before the player's DM panel showed it: such a move announces nothing, so nothing is
left unsent, yet the restart must still bring the panel up to the saved position. Left a step
behind, it would offer a draw the match is past until the player's next move. (The table shows
a turn once it ends, by design: it is not edited in the middle of one.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import (
    custom_ids,
    play_move,
    query,
    read_match,
    start_session,
    until,
    until_steady,
)
from tests.loopback.harness import bot_process


def _text(message: dict[str, Any] | None) -> str:
    return "" if message is None else json.dumps(message.get("embeds", []), ensure_ascii=False)


async def test_a_kill_after_a_draw_was_saved_still_shows_the_draw_after_the_restart(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        table_id = saved.table_message_id
        assert table_id is not None
        # A few turns in, at the start of a turn whose announcement is out.
        for _ in range(40):
            now = read_match(db, saved.id)
            assert now is not None
            if len(now.session.moves) >= 4 and now.session.view(0).phase == "draw":
                break
            await play_move(server, db, saved.id)
        await until(lambda: query(db, "SELECT unsent FROM matches WHERE id = ?",
                                  saved.id)[0]["unsent"] == "[]", "the turn's announcement")
        # The turn's edits have all landed: the table and the DMs unchanged for a second (a
        # fixed wait was too short on a loaded machine: the table compared below moved on).
        seen: list[str] = []
        assert saved.table_message_id is not None

        def unchanged() -> bool:
            now = json.dumps([server.messages.get(table_id),
                              *(server.dm_messages(m) for m in (alice, bob))], default=str)
            same = bool(seen) and seen[-1] == now
            seen[:] = [now]
            return same
        await until_steady(unchanged, "the turn's edits landed")
        before = read_match(db, saved.id)
        assert before is not None
        member = (alice, bob)[before.session.to_act]
        table = _text(server.messages[saved.table_message_id])
        # The drawing player's DM panel's edit never gets an answer: the bot dies waiting.
        held = server.hold("PATCH", rf"^/channels/{server.dms[member]}/messages/")
        await play_move(server, db, saved.id)  # the draw
        await until(lambda: held.held, "the draw's edit on its way")
        drawn = read_match(db, saved.id)
        assert drawn is not None and drawn.session.view(0).phase == "meld"
        assert query(db, "SELECT unsent FROM matches WHERE id = ?", saved.id)[0]["unsent"] \
            == "[]", "a draw announces nothing"
        bot.kill()
        server.release()
        await bot.start()
        # The player's DM panel offers this position's moves (melds, a discard), not a draw.
        moves = re.compile(rf"^umtali:m:{saved.id}:(\d+):")

        def panel_at_the_draw() -> bool:
            dm = server.dm_messages(member)
            versions = {int(m[1]) for c in (custom_ids(dm[-1]) if dm else [])
                        if (m := moves.match(c))}
            return versions == {drawn.version}
        await until(panel_at_the_draw, "the DM panel after the draw")
        # Nothing was said twice, and nothing more was said than the turns before.
        posted = [m["content"] for m in server.channel_messages(saved.channel_id)]
        assert len(posted) == len(set(posted)), posted
        assert _text(server.messages[saved.table_message_id]) == table
