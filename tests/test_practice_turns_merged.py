"""review139, practice against the computer: the player's turn went out as a post of its own,
the computer's reply a post later (106 posts for 104 turns), and each reply pinged the player
who had moved a second before (52-64 pings a session); with the computer leading, the deal's
line ("Game 1, hand 1: ada deals.") was a post alone. Now the player's turn waits for the
computer's reply (within its pause) and both go out as one post, the deal's line with the
computer's first turn, and the mention is silent for a player who moved under a minute ago.
Through the loopback Discord, a real SQLite file, the computer pausing as in play."""

from __future__ import annotations

import asyncio
import functools
import itertools
from pathlib import Path
from typing import Any

import pytest

from bot import make_bot
from cogs.umtali.service import MatchService
from data.messages import MessageQueries
from tests.loopback.driver import YOUR_TURN, play_move, query, read_match, start_practice, until
from tests.loopback.harness import bot_in_process, loopback_server

SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS
PAUSE = 0.3


def _paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer waits ``PAUSE`` before its turns (0 in the loopback's bot), as in play."""
    def with_pause(*args: Any, **kwargs: Any) -> Any:
        return make_bot(*args, **{**kwargs, "computer_pause": PAUSE})
    monkeypatch.setattr("tests.loopback.harness.make_bot", with_pause)


def _settled(db: Path, match_id: int) -> bool:
    """The computer has answered, and every announcement is posted."""
    saved = read_match(db, match_id)
    assert saved is not None
    unsent = query(db, "SELECT unsent FROM matches WHERE id = ?", match_id)[0]["unsent"]
    return (saved.status != "active" or saved.session.to_act == 0) and unsent == "[]"


async def _play_against_computer(server: Any, db: Path, match_id: int, moves: int) -> int:
    """Up to ``moves`` of the player's moves, each followed by the computer's reply and every
    announcement posted; how many were played (fewer: the session ended)."""
    played = 0
    for _ in range(moves):
        now = read_match(db, match_id)
        assert now is not None
        if now.status != "active":
            break
        await play_move(server, db, match_id)
        played += 1
        await until(functools.partial(_settled, db, match_id), "the computer's reply")
    return played


async def test_a_turn_goes_out_with_the_computers_reply_and_pings_nobody_at_the_table(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _paused(monkeypatch)
    # Dealt so that the computer (seat 1) leads.
    monkeypatch.setattr(MatchService, "new_seed", lambda self: 1001)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada = server.add_member("ada")
        async with bot_in_process(server, db):
            saved = await start_practice(server, db, ada)
            assert saved.session.to_act == 1 or saved.session.moves
            await until(functools.partial(_settled, db, saved.id), "the computer's first turn")
            await _play_against_computer(server, db, saved.id, 12)
            await asyncio.sleep(PAUSE + 0.2)
            posts = [c.body for c in server.calls if c.method == "POST" and
                     c.path == f"/channels/{saved.channel_id}/messages" and
                     isinstance(c.body, dict) and c.body.get("content")]
            # (each without the "your turn" line that opens it)
            said = [YOUR_TURN.sub("", b["content"]) for b in posts]
            # The deal's line goes with the computer's first turn.
            assert said[0].startswith("Game 1, hand 1:") and "Computer" in said[0].split(
                "\n")[1], said[0]
            # The player's turn never goes alone with the computer's reply the next post.
            for before, after in itertools.pairwise(said):
                assert not (before.split("\n")[-1].startswith("ada ") and
                            after.startswith("Computer")), (before, after)
            # Pinged only when not at the table: the first turn; silent once they move.
            mentions = [b for b in posts if f"<@{ada}>, your turn." in b["content"]]
            assert len(mentions) >= 4
            assert not int(mentions[0].get("flags") or 0) & SILENT
            assert all(int(b.get("flags") or 0) & SILENT for b in mentions[1:]), \
                [(b["content"][-40:], b.get("flags")) for b in mentions]


async def test_a_held_turn_is_no_failure_nothing_owed_is_written(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """review145: the player's turn held for the computer's reply went through the failures'
    path (a retry timer, ``matches.resend`` written '{"announce":true...}' then '' each turn:
    writes on SQLite's one writer for nothing). Held, it is simply not posted yet."""
    _paused(monkeypatch)
    writes: list[str] = []
    real = MessageQueries.set_resend

    async def counted(self: MessageQueries, match_id: int, owed: str, owner: str) -> bool:
        writes.append(owed)
        return await real(self, match_id, owed, owner)
    monkeypatch.setattr(MessageQueries, "set_resend", counted)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada = server.add_member("ada")
        async with bot_in_process(server, db):
            saved = await start_practice(server, db, ada)
            await until(functools.partial(_settled, db, saved.id), "the computer's first turn")
            played = await _play_against_computer(server, db, saved.id, 8)
            await asyncio.sleep(PAUSE + 0.2)
            assert played >= 3
            assert writes == []
            assert query(db, "SELECT resend FROM matches WHERE id = ?", saved.id)[0][
                "resend"] == ""
