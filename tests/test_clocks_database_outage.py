"""The database failing stands the clocks still, as a gateway outage does
(``cogs.umtali.db_outage``). Review132: a player's last move, 5 s before the deadline, failed
to save ("database is locked"; they were told to try again in a moment); the clock's forfeit
at the deadline failed too; the database back, their retry was refused as made after the
deadline and the next check forfeited them on time, for the bot's failure. Now the clocks
stand still from the failed move's arrival until the database works again, and the turn is
given that time back; a player who really was late gets only the outage's time, and is
forfeited as before; an outage that never ends forfeits nobody.

On the real SQLite file: every write refused "database is locked" as another writer holding
the lock would (reads go on, as SQLite's WAL lets them)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from simcord import assert_error

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import BUSY
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, player, start_match, thread_of
from tests.test_clocks_late_moves import REFUSED
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


class Writes:
    """The store's writes, refused while ``down`` (the reads go on)."""

    def __init__(self, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
        assert world.bot.matches is not None
        db = world.bot.matches.store.db
        real = db._begin
        self.down = False
        self.refused = 0

        @asynccontextmanager
        async def begin() -> AsyncIterator[Any]:
            if self.down:
                self.refused += 1
                raise sqlite3.OperationalError("database is locked")
            async with real() as tx:
                yield tx

        monkeypatch.setattr(db, "_begin", begin)


async def down_for(world: World, writes: Writes, start: float, end: float) -> None:
    """The database failing at the clock's check at ``start``, working again at its check at
    ``end`` (which pays the time the clocks stood still)."""
    svc = world.bot.matches
    assert svc is not None
    writes.down = True
    world.clock.now = start
    await svc.check_timers(now=start)
    writes.down = False
    world.clock.now = end
    await svc.check_timers(now=end)
    await flush(world)


def lose_first_payment(world: World, monkeypatch: pytest.MonkeyPatch,
                       then: Callable[[], None] | None = None) -> list[Any]:
    """The first payment of an outage's time (``resume_turn``) committed and its answer lost
    (``then`` run before it is: the database failing again, say); what each call returned."""
    svc = world.bot.matches
    assert svc is not None
    real = svc.store.resume_turn
    calls: list[Any] = []

    async def lost(*args: Any, **kwargs: Any) -> Any:
        out = await real(*args, **kwargs)
        calls.append(out)
        if len(calls) == 1:
            if then is not None:
                then()
            raise sqlite3.OperationalError("database is locked")
        return out

    monkeypatch.setattr(svc.store, "resume_turn", lost)
    return calls


async def _move(world: World, live: LiveMatch) -> Any:
    """The seat to act types its greedy move with ``/umtali play``, as a player would: the
    answer."""
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    answer = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                             move=str(move))
    await flush(world)
    return answer


def _said(answer: Any) -> str:
    return answer.response.content if answer.response is not None else ""


async def test_a_move_failed_by_the_database_is_not_charged_nor_forfeited(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline, version = live.deadline, live.version
    writes = Writes(world, monkeypatch)
    world.clock.now = deadline - 5
    writes.down = True
    answer = await _move(world, live)
    assert BUSY[:30] in _said(answer), _said(answer)
    assert_error(world.env, contains="database is locked")
    assert live.version == version
    # The clock's check at the deadline cannot save a forfeit, and after a minute of the
    # database failing, nor later: nobody is forfeited while it fails.
    for now in (deadline + LATE + 1, deadline + 60, deadline + 600):
        world.clock.now = now
        await svc.check_timers(now=now)
        await flush(world)
        assert not live.over, f"forfeited at deadline + {now - deadline:.0f} s"
    assert writes.refused
    # The database back: the turn is given back the time since the move arrived (it had 5 s
    # left then), up to the floor a restart gives (a minute: its move failed), and the
    # player's retry is played.
    writes.down = False
    world.clock.now = deadline + 608
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over, "forfeited on time for the database's failure"
    assert live.deadline == pytest.approx(deadline + 608 + 60, abs=0.5)
    world.clock.now = deadline + 610
    answer = await _move(world, live)
    assert REFUSED not in _said(answer), _said(answer)
    assert live.version == version + 1
    await svc.check_timers(now=deadline + 610 + LATE + 1)
    assert not live.over


async def test_a_player_really_late_gets_only_the_outages_time(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline, loser = live.deadline, live.session.to_act
    writes = Writes(world, monkeypatch)
    # The turn ran out with no move; the forfeit's save fails at the check after it.
    writes.down = True
    world.clock.now = deadline + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over
    writes.down = False
    world.clock.now = deadline + 30
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    # Given the outage's 26 s, no more: still run out, forfeited at that check.
    assert live.over and live.session.winner == 1 - loser


async def test_a_restart_during_the_outage_gives_the_turn_its_time_once(
        world: World, monkeypatch: pytest.MonkeyPatch,
        make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - 200
    await heartbeat(svc)  # (the last note saved: 200 s of the turn left)
    writes = Writes(world, monkeypatch)
    writes.down = True
    world.clock.advance(5)
    await _move(world, live)
    assert_error(world.env, contains="database is locked")
    for _ in range(3):
        world.clock.advance(200)
        await svc.check_timers(now=world.clock.now)
        assert not live.over
    # Killed while it fails, started on the database working again: the turn has what it
    # had at the last note, nothing charged for the outage, nothing given twice.
    world.clock.advance(60)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert not restored.over
    assert restored.deadline == pytest.approx(world.clock.now + 200, abs=2)
    await again.matches.check_timers(now=world.clock.now + 1)
    assert restored.deadline == pytest.approx(world.clock.now + 200, abs=2)


async def test_a_retry_during_the_outage_is_not_charged_the_bots_failure(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blitz (30 s a turn, 2 min reserve): the turn's last move, 5 s before its own time is
    up, fails to save; retried 40 s later, the database working again before any check saw
    it, it is played within the turn's own time: the reserve is not charged the 35 s past it
    that the bot spent failing."""
    live = await start_match(world, time_control="blitz")
    svc = world.bot.matches
    assert svc is not None
    slow, start = live.session.to_act, world.clock.now
    await to_turn_end(world, live)
    writes = Writes(world, monkeypatch)
    writes.down = True
    world.clock.now = start + 25
    await _move(world, live)
    assert_error(world.env, contains="database is locked")
    assert live.session.to_act == slow
    writes.down = False
    world.clock.now = start + 65
    answer = await _move(world, live)
    assert REFUSED not in _said(answer), _said(answer)
    assert live.session.to_act != slow
    assert live.reserves[slow] == pytest.approx(120)
