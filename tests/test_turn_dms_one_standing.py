"""review139, by correspondence: each turn's "Your turn ..." DM stood for good, 54-55 a session
per player, the hand panel (the first DM, edited in place) pushed far up; each one cost a
``GET /users`` first; the channel's "your turn" mention pinged the player the DM had just
notified. Now one turn DM at most stands per player (the one before deleted as the next goes
out, and once the turn is played), sent to the DM channel known, and the channel's mention is
silent for a player the DM told. Through the loopback Discord, a real SQLite file."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import play_move, query, read_match, start_session, until, write
from tests.loopback.harness import bot_in_process, loopback_server

TOLD = "Your turn in the Umtali match"
SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS


def _turn_dms(server: Any, member: int) -> list[dict[str, Any]]:
    return [m for m in server.dm_messages(member) if TOLD in (m.get("content") or "")]


async def _first_turn_told(server: Any, db: Path, ada: int, ben: int) -> tuple[Any, int]:
    """A correspondence session started, its first turn's DM sent: the session as saved, and
    the member to act."""
    saved = await start_session(server, db, ada, ben, time_control="correspondence")
    first: int = saved.player_ids[saved.session.to_act]
    await until(functools.partial(_turn_dms, server, first), "the first turn's DM")
    return saved, first


async def _play_turn_of(server: Any, db: Path, match_id: int, member: int) -> None:
    """``member``'s turn played to its end (the match over, or the other to act)."""
    while (now := read_match(db, match_id)) is not None and \
            now.player_ids[now.session.to_act] == member:
        await play_move(server, db, match_id)


def _passed(server: Any, mover: int, nxt: int) -> bool:
    """The turn passed from ``mover`` to ``nxt``: told by DM, and ``mover``'s DM gone."""
    return len(_turn_dms(server, nxt)) == 1 and not _turn_dms(server, mover)


async def test_one_turn_dm_stands_and_the_channel_mention_is_silent(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db):
            saved = await start_session(server, db, ada, ben, time_control="correspondence")
            # (Each hand panel, the first DM, looks its player up once.)
            await until(lambda: server.dm_messages(ada) and server.dm_messages(ben), "panels")
            await asyncio.sleep(0.2)
            start = len(server.calls)
            sent = 0
            for _ in range(14):
                before = read_match(db, saved.id)
                assert before is not None
                if before.status != "active":
                    break
                mover = before.player_ids[before.session.to_act]
                await until(functools.partial(_turn_dms, server, mover), "the turn's DM")
                await play_move(server, db, saved.id)
                after = read_match(db, saved.id)
                assert after is not None
                if after.session.to_act == before.session.to_act:
                    continue  # the turn goes on (a meld): still theirs
                sent += 1
                nxt = after.player_ids[after.session.to_act]
                await until(functools.partial(_passed, server, mover, nxt),
                            "the next turn's DM, the played one's gone")
                await asyncio.sleep(0.05)
                # One stands: the player to act's; the one who just played has none.
                assert len(_turn_dms(server, nxt)) == 1
                assert _turn_dms(server, mover) == []
            assert sent >= 4
            calls = server.calls[start:]
            # The turn DMs went to the DM channels known: no user looked up for them.
            assert [c.path for c in calls if c.method == "GET" and
                    c.path.startswith("/users/")] == []
            # The channel's "your turn" lines: silent, the DM having told the player.
            turns = [c.body for c in calls if c.method == "POST" and
                     c.path == f"/channels/{saved.channel_id}/messages" and
                     "your turn." in (c.body.get("content") or "")]
            assert turns and all(int(b.get("flags") or 0) & SILENT for b in turns), \
                [(b.get("content"), b.get("flags")) for b in turns]
            ids = query(db, "SELECT turn_dm0_id, turn_dm1_id FROM matches WHERE id = ?",
                        saved.id)[0]
            now = read_match(db, saved.id)
            assert now is not None
            seat = now.session.to_act
            # The DM standing is saved as the seat's (a restart deletes it too).
            assert ids[f"turn_dm{seat}_id"] == int(_turn_dms(server, now.player_ids[seat])[0]["id"])
            assert ids[f"turn_dm{1 - seat}_id"] is None


async def test_a_turn_dm_sent_before_a_restart_is_deleted_after_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The turn DM's id is saved: the process after a restart deletes it once the turn is
    played (memory alone would have left it standing for good)."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db):
            saved, first = await _first_turn_told(server, db, ada, ben)
        [told] = _turn_dms(server, first)
        async with bot_in_process(server, db):
            await _play_turn_of(server, db, saved.id, first)
            await until(lambda: not _turn_dms(server, first), "the played turn's DM deleted")
            assert int(told["id"]) not in server.messages
            await until(lambda: any(c.method == "DELETE" and c.path.endswith(f"/{told['id']}")
                                    for c in server.calls), "its delete")


async def test_a_turn_dm_that_cannot_be_deleted_is_no_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Discord refusing the delete (down, or the DM gone): the DM stays, logged as news, the
    match goes on, the next turn told as ever (no ERROR: the conftest fails on one)."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db):
            saved = await start_session(server, db, ada, ben, time_control="correspondence")
            first = saved.player_ids[saved.session.to_act]
            other = saved.player_ids[1 - saved.session.to_act]
            await until(functools.partial(_turn_dms, server, first), "the first turn's DM")
            server.fail("DELETE", r"^/channels/[0-9]+/messages/[0-9]+$", times=10, status=503)
            await _play_turn_of(server, db, saved.id, first)
            await until(functools.partial(_turn_dms, server, other), "the next turn told")
            await asyncio.sleep(0.2)
            assert len(_turn_dms(server, first)) == 1  # it stays
            # Saved as gone all the same: not tried again at every delivery.
            row = query(db, "SELECT turn_dm0_id, turn_dm1_id FROM matches")[0]
            assert row[f"turn_dm{saved.player_ids.index(first)}_id"] is None


async def test_a_turn_dm_with_no_dm_channel_saved_is_deleted_all_the_same(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """review145: the seat's DM channel not saved (the DM sent by ``user.send`` before any
    panel landed), the turn DM's id was cleared with nothing to delete it in: it stood for
    good. Its channel is looked up then."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db):
            saved, first = await _first_turn_told(server, db, ada, ben)
            [told] = _turn_dms(server, first)
            seat = saved.session.to_act
            await write(db, f"UPDATE matches SET dm{seat}_channel_id = NULL WHERE id = ?",
                        saved.id)
            await _play_turn_of(server, db, saved.id, first)
            await until(lambda: int(told["id"]) not in server.messages,
                        "the played turn's DM deleted")
