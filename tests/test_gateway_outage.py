"""A gateway outage while the bot runs: no click or command reaches it, so nobody can play.
The clocks stand still (no forfeit, no warning) and the turn gets the outage's time back once
the connection is, saved before memory. On the loopback Discord, in real time: its gateway
drops the bot's connection and refuses new ones for a few seconds, as an outage would."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from scale import ShardPlan
from tests.loopback.driver import query, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server

#: How long the gateway stays down: longer than the turn has left.
DOWN = 6.0


@pytest.mark.parametrize("shards", [None, ShardPlan(2)], ids=["one connection", "two shards"])
async def test_a_turn_that_ends_while_the_gateway_is_down_is_not_forfeited(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shards: ShardPlan | None) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, db, shards) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben, turn_timer=5)
        svc = bot.matches
        assert svc is not None
        live = svc.matches[saved.id]
        # The turn has 2 s left when the outage begins.
        async with live.lock:
            deadline = time.time() + 2.0
            assert await svc.store.set_deadline(live.id, live.version, deadline)
            live.deadline = deadline
        connected = server.identifies + server.gateway.resumes
        await server.gateway_down(DOWN)
        await asyncio.sleep(DOWN / 2)
        # Past the deadline, with nobody able to play: the timers do nothing.
        assert time.time() > deadline
        await svc.check_timers()
        assert not live.over and live.deadline == deadline
        # The connection comes back (a resume, or a new session).
        await until(lambda: server.identifies + server.gateway.resumes
                    >= connected + (1 if shards is None else 2) or None,
                    "the gateway back", timeout=30)
        await until(lambda: live.deadline != deadline or None, "the time given back")
        # At least the outage's time, saved as in memory.
        assert live.deadline - deadline >= DOWN - 0.5
        row = query(db, "SELECT deadline, status FROM matches WHERE id = ?", saved.id)[0]
        assert row["deadline"] == live.deadline and row["status"] == "active"
        await svc.check_timers()
        assert not live.over
