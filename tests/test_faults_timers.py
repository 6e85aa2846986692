"""Issue 10, cases 1, 2 and 4: the turn timer against a move being saved, a restart after
downtime, and a save that fails, on a real SQLite file that another connection locks."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.alive import ALIVE_AT, heartbeat
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, play_out, start_match, thread_of
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


@contextmanager
def write_lock(db_path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's write transaction: the bot's writes wait for it (or give up)."""
    other = sqlite3.connect(db_path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


def db_row(db_path: Path, match_id: int) -> sqlite3.Row:
    with sqlite3.connect(db_path) as c:
        c.row_factory = sqlite3.Row
        row: sqlite3.Row | None = c.execute("SELECT * FROM matches WHERE id = ?",
                                            (match_id,)).fetchone()
    assert row is not None
    return row


async def to_turn_end(world: World, live: LiveMatch) -> None:
    """Play until the player to act has only the move that ends their turn left to make."""
    while True:
        move = GreedyPlayer().choose(live.session.view(live.session.to_act))
        if move.kind is MoveKind.DISCARD:
            return
        await play_out(world, live, moves=1)


async def until_locked(live: LiveMatch) -> None:
    for _ in range(1000):
        if live.lock.locked():
            return
        await asyncio.sleep(0)
    raise AssertionError("the move never took the match's lock")


async def test_a_move_saved_at_the_deadline_never_forfeits_the_next_player(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None
    await to_turn_end(world, live)
    seat, version = live.session.to_act, live.version
    old_deadline = live.deadline
    assert old_deadline is not None
    # The player ends their turn one second before their deadline ...
    world.clock.now = old_deadline - 1
    discard = GreedyPlayer().choose(live.session.view(seat))
    with write_lock(db_path):
        move = asyncio.create_task(svc.act(live, live.player_ids[seat], discard, version))
        await until_locked(live)
        # ... and while it is being saved, memory is not ahead of the database ...
        assert live.session.to_act == seat and live.version == version
        # ... and the timer ticks just after the old deadline ran out (``LATE`` past it).
        timer = asyncio.create_task(svc.check_timers(now=old_deadline + LATE + 1))
        for _ in range(50):
            await asyncio.sleep(0)
        assert not live.over
    outcome = await move
    await timer
    await flush(world)
    assert outcome.error is None
    assert not live.over, "the next player was forfeited for the previous player's time"
    assert live.session.to_act == 1 - seat and live.deadline is not None
    assert live.deadline > old_deadline
    assert db_row(db_path, live.id)["status"] == "active"


async def test_a_restart_after_downtime_gives_the_turn_time_back_and_says_so(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, turn_timer=5)
    seat = live.session.to_act
    deadline = live.deadline
    assert deadline is not None
    # The bot was last alive (its timer loop notes it every few seconds) with 100 s left in
    # the turn, then went down, and comes back an hour later.
    world.clock.now = deadline - 100
    assert world.bot.matches is not None
    await heartbeat(world.bot.matches)
    with sqlite3.connect(db_path) as c:
        alive = c.execute("SELECT value FROM meta WHERE key = ?", (ALIVE_AT,)).fetchone()
    assert alive is not None and float(alive[0]) == deadline - 100
    world.clock.now = deadline + 3600
    again = make_bot()
    await world.env.restart_bot(again)
    svc = again.matches
    assert svc is not None
    restored = svc.matches[live.id]
    now = world.clock.now
    assert restored.deadline is not None and abs(restored.deadline - (now + 100)) < 1
    assert not restored.warned
    await svc.check_timers(now=now + 1)
    await flush(world)
    assert not restored.over, "forfeited on the first tick after downtime"
    thread = thread_of(world, restored)
    notice = thread.history()[-1].content
    assert "offline" in notice and f"<@{restored.player_ids[seat]}>, your turn" in notice
    # The timer runs again from there: a warning, then the forfeit.
    await svc.check_timers(now=restored.deadline - 30)
    await flush(world)
    assert "seconds left" in thread.history()[-1].content
    await svc.check_timers(now=restored.deadline + LATE + 1)
    await flush(world)
    assert restored.over and restored.session.how == "timed out"


async def test_a_resignation_that_cannot_be_saved_changes_nothing(
        world: World, db_path: Path) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    await quick_busy_timeout(svc)
    seat = live.session.to_act
    with write_lock(db_path), pytest.raises(sqlite3.OperationalError):
        await svc.resign(live, seat)
    # Memory as the database has it: the match goes on, and can be resigned later.
    assert not live.over and db_row(db_path, live.id)["status"] == "active"
    await play_out(world, live, moves=2)
    assert await svc.resign(live, live.session.to_act)
    await flush(world)
    assert live.over and db_row(db_path, live.id)["status"] == "finished"
    [result] = await svc.store.session_results(world.guild.id)
    assert result["how"] == "resigned"


async def test_a_forfeit_that_cannot_be_saved_is_tried_again_by_the_next_tick(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await quick_busy_timeout(svc)
    caplog.set_level(logging.WARNING)
    late = live.deadline + LATE + 1
    with write_lock(db_path):
        await svc.check_timers(now=late)
    assert not live.over and db_row(db_path, live.id)["status"] == "active"
    # (the database failing stands the clocks still until it works again: ``db_outage``)
    assert any("the clocks stand still until it works again" in r.getMessage()
               for r in caplog.records if r.levelname == "WARNING")
    # A player can still move meanwhile (nothing says "this match is over").
    assert svc.match_of(world.guild.id, live.player_ids[0]) is live
    await svc.check_timers(now=late + 1)
    await flush(world)
    assert live.over and live.session.how == "timed out"
    assert db_row(db_path, live.id)["status"] == "finished"
    assert json.loads(db_row(db_path, live.id)["unsent"]) == []


async def quick_busy_timeout(svc: MatchService) -> None:
    """Give up on a locked database after 50 ms instead of 5 s, so the tests stay quick."""
    async with svc.store.db.conn.execute("PRAGMA busy_timeout = 50"):
        pass
