"""fix128: a resign confirmation's "Yes" does what its question promised. Asked while the
opponent of a match with no clock had left the server, it promised "no result": if they are
back when it is clicked, or Discord cannot say, nothing is recorded (never a rated loss), and
the player is told why. A confirmation sent before its id said what it promised expires.
SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.discord_helpers import World, custom_ids, flush, start_match
from tests.loopback.driver import start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged
from tests.test_review43_opponent_left import ASKED_LEFT, LEFT, gone_a_day


def _yes(message: Any) -> str:
    return next(c for c in custom_ids(message) if c.endswith(":resign"))


def _row(db_path: Path, match_id: int) -> tuple[str, str | None, int]:
    with sqlite3.connect(db_path) as c:
        status, how = c.execute("SELECT status, how FROM matches WHERE id = ?",
                                (match_id,)).fetchone()
        results = c.execute("SELECT COUNT(*) FROM session_results").fetchone()[0]
    return status, how, results


async def _asked_left(world: World) -> Any:
    world.guild.remove_member(world.bob)
    await world.env.settle()
    await gone_a_day(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.response.content == ASKED_LEFT
    return ask


async def test_yes_after_the_opponent_came_back_changes_nothing(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    ask = await _asked_left(world)
    world.guild.add_member(world.bob.user)
    await world.env.settle()
    done = await world.alice.click(ask.response, custom_id=_yes(ask.response))
    await flush(world)
    assert done.response.content == (
        "ben is back on the server: this question is out of date, and nothing changed. "
        "Use /umtali resign again if you still want to stop."), done.response.content
    assert not live.over
    assert _row(db_path, live.id) == ("active", None, 0)
    # Asked again, it is a resignation, and says so.
    again = await world.alice.slash(world.channel, "umtali resign")
    assert again.response.content == "Resign the session? Your opponent wins it."
    done = await world.alice.click(again.response, custom_id=_yes(again.response))
    assert str(done.response.content).startswith("You resigned"), done.response.content


async def test_yes_when_discord_cannot_say_changes_nothing(world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    ask = await _asked_left(world)
    world.env.inject_error("GET", "/guilds/*/members/*", status=503, code=0,
                           message="Service Unavailable", times=10)
    done = await world.alice.click(ask.response, custom_id=_yes(ask.response))
    await flush(world)
    assert done.response.content == (
        "Couldn't check whether ben is still on the server, so nothing changed: try again in "
        "a moment."), done.response.content
    assert not live.over
    assert _row(db_path, live.id) == ("active", None, 0)
    world.env.backend.faults.clear()
    # Discord answers again: the same Yes does what it said.
    done = await world.alice.click(ask.response, custom_id=_yes(ask.response))
    await flush(world)
    assert done.response.content == LEFT
    assert _row(db_path, live.id) == ("finished", "abandoned", 0)


@pytest.mark.parametrize("left", [False, True])
async def test_a_yes_from_before_the_promise_was_carried_expires(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, left: bool) -> None:
    """Its id cannot tell which question it answered: neither a loss nor "no result" can be
    known to be what the player agreed to. (The loopback Discord: SimCord sends no id that is
    not on the message, and no message carries an old one any more.)"""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben, turn_timer=0)
        if left:
            server.fail("GET", rf"^/guilds/{server.guild_id}/members/{ben}$", times=10**9,
                        status=404, code=10007)
        custom_id = f"umtali:m:{saved.id}:{saved.version}:resign"
        answer = await server.click(ada, forged(server, custom_id), custom_id)
        assert "This confirmation has expired" in answer.text(), answer.text()
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status, how FROM matches WHERE id = ?",
                         (saved.id,)).fetchone() == ("active", None)
