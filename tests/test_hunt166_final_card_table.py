"""The final card rides only under the final table (hunt166).

A table edit is drawn off the event loop; the session's last move may land while the edit of
the move before it is drawn. That edit showed the position before the last move ("ben plays
the last turn", its clock running) with the final card and its buttons under it: a thread
that read, for a moment, as over and not over at once, and that looked settled to a reader
(and to ``table_settled``) before the last table arrived. Each edit is now of one moment.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.service import MatchService
from tests.held_panels import HeldPanels
from tests.loopback.driver import (
    custom_ids,
    play_move,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from umtali.players import GreedyPlayer


def moves_left(db: Path, match_id: int) -> tuple[int, int]:
    """The greedy moves that end the saved session: how many, and how many of them the last
    turn makes (the table is edited as a turn ends)."""
    saved = read_match(db, match_id)
    assert saved is not None
    session, seats = saved.session.copy(), []
    while not session.over:
        seats.append(session.to_act)
        session.apply(GreedyPlayer().choose(session.view(session.to_act)))
        assert len(seats) < 5000
    last = len(seats) - next(i for i in range(len(seats), 0, -1) if seats[i - 1] != seats[-1])
    return len(seats), last


def is_final_card(embed: dict[str, Any]) -> bool:
    return str(embed.get("title", "")).startswith("Session over")


async def test_the_final_card_is_never_shown_under_the_table_before_the_last_move(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MatchService, "new_seed", lambda self: 4242)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        svc = bot.matches
        assert svc is not None
        match = await start_session(server, db, server.add_member("ada"),
                                    server.add_member("ben"))
        left, last_turn = moves_left(db, match.id)
        for _ in range(left - last_turn - 1):
            await play_move(server, db, match.id)
        await svc.flush()
        # The turn before the last one ends: its table's drawing is held until the session's
        # last move is saved.
        held = HeldPanels(monkeypatch, first_only=True, maker="table_message")
        await play_move(server, db, match.id)
        await until(lambda: held.held, "the table's edit for the turn before the last")
        for _ in range(last_turn):
            await play_move(server, db, match.id)
        finished = read_match(db, match.id)
        assert finished is not None and finished.status == "finished"
        held.release()
        await svc.flush()
        await until(lambda: table_settled(server, finished), "the final table")

        assert match.table_message_id is not None
        path = f"/channels/{match.channel_id}/messages/{match.table_message_id}"
        edits = [c.body for c in server.calls if c.method == "PATCH" and c.path == path
                 and isinstance(c.body, dict) and "embeds" in c.body]
        assert edits
        for body in edits:
            embeds = body["embeds"]
            table = json.dumps(embeds[0], ensure_ascii=False)
            if any(is_final_card(e) for e in embeds):
                # The card, and its replay and rematch buttons, with the table that ended.
                assert "Session over" in table, table
            else:
                assert "Session over" not in table, table
        shown = server.messages[match.table_message_id]
        assert "Session over" in json.dumps(shown["embeds"][0], ensure_ascii=False)
        assert not any(":hand" in c for c in custom_ids(shown))
