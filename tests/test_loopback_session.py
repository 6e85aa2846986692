"""The real bot over real sockets: a whole session against the loopback Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import (
    custom_ids,
    play_out,
    query,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from umtali.session import Session


def mid_turn_moves(played: Session) -> int:
    """How many of the session's moves left the same player to move on in the same hand."""
    session = Session(played.rules, played.seed)
    count = 0
    for move in played.moves:
        hand, seat = session.hand, session.to_act
        session.apply(move)
        count += not session.over and session.hand is hand and session.to_act == seat
    return count


async def test_a_full_session_over_sockets(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        assert server.commands, "the slash commands were synced"
        saved = await start_session(server, db, alice, bob)
        # The session is played in a thread made from the challenge message.
        assert [t["id"] for t in server.threads()] == [str(saved.channel_id)]
        await until(lambda: all(server.dm_messages(u) for u in (alice, bob)), "the hands")
        calls_before = len(server.calls)
        moves = await play_out(server, db, saved.id)
        final = read_match(db, saved.id)
        assert final is not None and final.status == "finished"
        [result] = query(db, "SELECT * FROM session_results")
        assert result["match_id"] == saved.id
        assert result["winner_seat"] == final.session.winner
        assert result["how"] == "played out"
        assert (result["games_won0"], result["games_won1"]) == tuple(final.session.games_won)
        assert len(query(db, "SELECT * FROM moves WHERE match_id = ?", saved.id)) == moves
        await until(lambda: table_settled(server, final), "the final table")
        # Discord is told of each turn once: at most two calls a move besides the answers to
        # the interactions (with /umtali play, as here, the mover's DM is edited too), and one
        # for each move in the middle of a turn: the mover's DM panel is edited to show it
        # (the panels a player has show the same hand; a turn's end edits it anyway).
        others = [c for c in server.calls[calls_before:] if "/interactions/" not in c.path
                  and "/webhooks/" not in c.path]
        within = mid_turn_moves(final.session)
        print(f"REST calls: {len(others)} for {moves} moves, {within} of them mid-turn")
        assert len(others) <= 2 * moves + within, (len(others), moves, within)
        thread = server.channel_messages(saved.channel_id)
        await until(lambda: "wins the session" in server.channel_messages(
            saved.channel_id)[-1]["content"], "the result announced")
        assert len(thread) > 10
        # Both hands went by DM and were edited in place: one DM message each.
        assert len(server.dm_messages(alice)) == 1 and len(server.dm_messages(bob)) == 1


async def test_a_draw_from_the_dm_panel_updates_it_in_place(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        # Russian deal: the first turn starts with a draw, offered on the hand's DM.
        saved = await start_session(server, db, alice, bob, variant="russian")
        user = saved.player_ids[saved.session.to_act]
        draw = f"umtali:m:{saved.id}:0:draw"
        dm = await until(lambda: next((m for m in server.dm_messages(user)
                                       if draw in custom_ids(m)), None), "the hand's DM")
        clicked = await server.click(user, dm, draw)
        # A click in a DM comes with ``user``, not ``member``; the panel is updated in place.
        assert "member" not in clicked.payload and clicked.callback_type == 7
        assert clicked.response is dm and clicked.ephemeral is False
        after = read_match(db, saved.id)
        assert after is not None and after.version == 1
        assert draw not in custom_ids(dm)
