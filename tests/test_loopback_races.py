"""Issue 10, case 3: clicks that race, over real sockets (the loopback Discord delivers them at
once, as Discord does when a member clicks twice or accepts two challenges together)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import (
    accept,
    custom_ids,
    play_move,
    query,
    read_match,
    start_session,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def _challenge(server: LoopbackDiscord, challenger: int, opponent: int) -> dict[str, Any]:
    answer = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent)})
    assert answer.response is not None and not answer.ephemeral, answer.text()
    return answer.response


def _accept(message: dict[str, Any]) -> str:
    return next(c for c in custom_ids(message) if c.endswith(":accept"))


def _shown(server: LoopbackDiscord, message: dict[str, Any]) -> dict[str, Any]:
    found = next(m for m in server.channel_messages(server.channel_id)
                 if m["id"] == message["id"])
    return found


async def test_two_accepts_racing_start_one_session_and_say_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        first = await _challenge(server, ada, ben)
        second = await _challenge(server, cy, ben)
        # ben accepts both at once, the first with a double click.
        answers = await asyncio.gather(
            accept(server, ben, first),
            accept(server, ben, second),
            accept(server, ben, first),
        )
        matches = await until(lambda: query(db, "SELECT * FROM matches WHERE table_message_id "
                                                "IS NOT NULL") or None, "the table")
        assert len(query(db, "SELECT * FROM matches")) == 1
        won = 0 if matches[0]["player0_id"] == ada else 1
        statuses = {r["id"]: r["status"] for r in query(db, "SELECT * FROM challenges")}
        assert sorted(statuses.values()) == ["accepted", "open"]
        # Two of the three clicks lost the race, and were told so privately.
        assert sum(1 for a in answers if a.callback_type == 4 and a.ephemeral) == 2, \
            [a.text() for a in answers]
        # Each message says what really happened: one accepted, with its draw; the other is
        # still open, with its buttons.
        shown = [_shown(server, m) for m in (first, second)]
        winner, loser = shown[won], shown[1 - won]
        assert "accepted" in winner["embeds"][0]["description"]
        assert "Draw for first dealer" in winner["embeds"][0]["description"]
        assert "accepted" not in loser["embeds"][0]["description"]
        assert custom_ids(loser) != []


async def test_a_turn_saved_while_the_last_one_is_posted_stays_in_the_unsent_list(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The list of unsent announcements is the promise that a crash loses none: it must hold
    every turn saved and not yet posted at every moment, even when a turn is saved while the
    previous one is being posted (the crash is a read of the database at the worst moment)."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        svc = bot.matches
        assert svc is not None
        # Discord is slow to take the next announcement in the match's channel.
        slow = server.delay("POST", rf"^/channels/{saved.channel_id}/messages$")
        seat = saved.session.to_act
        while read_match(db, saved.id).session.to_act == seat:  # type: ignore[union-attr]
            await play_move(server, db, saved.id)
        # The next player plays up to the move that ends their turn.
        while True:
            now = read_match(db, saved.id)
            assert now is not None
            move = GreedyPlayer().choose(now.session.view(1 - seat))
            if move.kind is MoveKind.DISCARD:
                break
            await play_move(server, db, saved.id)
        # The turn's post is with Discord. (The table and the DM panels are edited before it:
        # on a loaded machine that can take longer than the moves above. Saved before the post
        # went out, the last move would hold the match's lock the post's reading waits on.)
        await until(lambda: slow.held, "the turn's post")
        # That move is saved; before it becomes the live state, the slow post goes through.
        committed, proceed = asyncio.Event(), asyncio.Event()
        real = svc.store.record_move

        async def slow_after_commit(**kw: Any) -> list[str]:
            unsent = await real(**kw)
            committed.set()
            await proceed.wait()
            return unsent

        monkeypatch.setattr(svc.store, "record_move", slow_after_commit)
        last = asyncio.create_task(play_move(server, db, saved.id))
        await asyncio.wait_for(committed.wait(), 10)
        server.release()
        await until(lambda: any("your turn" in m["content"]
                                for m in server.channel_messages(saved.channel_id)[2:]),
                    "the delayed announcement")
        await asyncio.sleep(0.3)  # time for anything the bot does after posting it
        # The crash: what a restart would post is what the database holds now.
        unsent = json.loads(query(db, "SELECT unsent FROM matches WHERE id = ?",
                                  saved.id)[0]["unsent"])
        assert unsent and unsent[-1].startswith(f"<@{(ada, ben)[seat]}>, your turn.\n"), unsent
        proceed.set()
        await last
        await until(lambda: query(db, "SELECT unsent FROM matches WHERE id = ?",
                                  saved.id)[0]["unsent"] == "[]", "the last post")
        texts = [m["content"] for m in server.channel_messages(saved.channel_id)]
        assert texts[-1].startswith(f"<@{(ada, ben)[seat]}>, your turn.\n")
