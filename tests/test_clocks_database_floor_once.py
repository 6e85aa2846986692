"""The database's floor (``db_outage.with_floor``), review135: a flapping database kept an
absent player's turn alive, each blip before its deadline topping it up to the floor again
(five 1 s blips made a 60 s turn last 5 minutes); a payment whose answer was lost after its
COMMIT was paid again, its notice posted twice; the waiting player's click failing gave the
acting player's turn the floor; the notice said the turn's standstill, dated back, as the
outage's length. Now the floor is given once a turn (again only to its player's own move
failed in time), a payment settles on the deadline it was owed on, only the acting player's
move counts, and the notice says about how long the outage was seen (SimCord, virtual time,
the real SQLite file's writes refused "database is locked")."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from simcord import assert_error

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, player, start_match, thread_of
from tests.test_clocks_database_floor import UNSAVED
from tests.test_clocks_database_outage import (
    Writes,
    _move,
    _said,
    down_for,
    lose_first_payment,
)
from tests.test_clocks_late_moves import REFUSED


def _told(world: World, live: LiveMatch) -> list[str]:
    """Each notice of a database outage in the match's channel (a message may hold several)."""
    return [line for m in thread_of(world, live).history() for line in m.content.split("\n")
            if UNSAVED in line]


async def _blip(world: World, live: LiveMatch, writes: Writes, at: float,
                move: bool = False) -> None:
    """A last write that works at ``at``; the database failing 1 s from ``at`` + 0.5 (heard
    by a check, or by the move of the seat to act if ``move``), back at ``at`` + 1.5."""
    svc = world.bot.matches
    assert svc is not None
    world.clock.now = at
    await heartbeat(svc)
    writes.down = True
    world.clock.now = at + 0.5
    if move:
        await _move(world, live)
        assert_error(world.env, contains="database is locked")
    else:
        await svc.check_timers(now=world.clock.now)
    writes.down = False
    world.clock.now = at + 1.5
    await svc.check_timers(now=world.clock.now)
    await flush(world)


async def test_a_flapping_database_gives_an_absent_turn_its_floor_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody moves; the database fails 1 s every 10 s, from 2 s before the deadline, five
    times: the first gives the floor (back + 60 s), each later one (under the floor left
    again) only its own 1.5 s (dated back to the last write that worked), and the turn is
    forfeited at its end."""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    writes = Writes(world, monkeypatch)
    ends = []
    for blip in range(5):
        await _blip(world, live, writes, deadline - 2 + 10 * blip)
        assert live.deadline is not None
        ends.append(live.deadline - deadline)
    assert ends == pytest.approx([59.5, 61.0, 62.5, 64.0, 65.5]), ends
    world.clock.now = deadline + 65.5 + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.over


async def test_a_move_failed_in_time_gets_the_floor_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn given its floor by one blip; at the next, its player's own move, made in
    time, fails to save: told to try again, they get the floor again, and the retry plays."""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline, version = live.deadline, live.version
    writes = Writes(world, monkeypatch)
    await _blip(world, live, writes, deadline - 2)
    assert live.deadline - deadline == pytest.approx(59.5)
    floored = live.deadline
    await _blip(world, live, writes, floored - 2, move=True)
    back = floored - 0.5
    assert live.deadline - back == pytest.approx(60)
    world.clock.now = back + 30
    answer = await _move(world, live)
    assert REFUSED not in _said(answer), _said(answer)
    assert live.version == version + 1


async def test_the_waiting_players_failed_click_gives_no_floor(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """2 s after the deadline (the acting player's own move made in time would get the
    floor), the waiting player's click fails on reading the database: the clocks stand still
    for it, but the turn run out gets only the outage's time, and is forfeited."""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    writes = Writes(world, monkeypatch)
    leases = svc.owners.leases
    real = leases.progress

    async def failing(match_id: int) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(leases, "progress", failing)
    writes.down = True
    world.clock.now = deadline + 2
    waiting = 1 - live.session.to_act
    await player(world, waiting).slash(thread_of(world, live), "umtali play", move="draw")
    await flush(world)
    assert_error(world.env, contains="database is locked")
    monkeypatch.setattr(leases, "progress", real)
    writes.down = False
    world.clock.now = deadline + 30
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.deadline is not None and live.deadline < deadline + 30
    world.clock.now = deadline + 30 + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.over


async def test_a_payment_whose_answer_was_lost_is_told_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The payment (deadline and notice, one transaction) is committed, its answer lost (a
    PostgreSQL connection dropped at the COMMIT): paid again at the next check, it found the
    deadline paid and added the notice a second time."""
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    writes = Writes(world, monkeypatch)
    calls = lose_first_payment(world, monkeypatch)
    writes.down = True
    world.clock.now = deadline - 200
    await svc.check_timers(now=world.clock.now)
    writes.down = False
    for t in (deadline - 160, deadline - 159, deadline - 158):
        world.clock.now = t
        await svc.check_timers(now=t)
        await flush(world)
    assert len(calls) == 2
    assert live.deadline - deadline == pytest.approx(40)
    told = _told(world, live)
    assert len(told) == 1, told
    assert f"<t:{int(live.deadline)}:R>" in told[0], told
    row = await svc.store.match(live.id)
    assert row is not None and row.unsent == "[]"


async def test_the_notice_says_about_how_long_the_outage_was_seen(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last write that worked 10 s before the failure was heard of: the turn's clock
    stands still from then (50 s given back), but the database was seen failing for 40 s,
    and the notice says about that, not the 50 s."""
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    writes = Writes(world, monkeypatch)
    world.clock.now = deadline - 210
    await heartbeat(svc)
    await down_for(world, writes, deadline - 200, deadline - 160)
    assert live.deadline - deadline == pytest.approx(50)
    told = _told(world, live)
    assert len(told) == 1 and "failed for about 40 seconds" in told[0], told


async def test_a_restarts_grace_is_the_turns_floor(
        world: World, monkeypatch: pytest.MonkeyPatch,
        make_bot: Callable[[], UmtaliBot]) -> None:
    """The bot restarted 2 s before the deadline gives the turn its grace (60 s), the floor a
    database outage gives: a blip 2 s before its new end then gives only its own time. (What
    turn had its floor is not saved: a restart gives its grace anyway.)"""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - 2
    await heartbeat(svc)
    world.clock.advance(10)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None and world.bot is again
    restored = again.matches.matches[live.id]
    graced = restored.deadline
    assert graced is not None and graced - world.clock.now == pytest.approx(60)
    await again.matches.check_timers(now=world.clock.now)
    writes = Writes(world, monkeypatch)
    await _blip(world, restored, writes, graced - 2)
    assert restored.deadline is not None and restored.deadline - graced == pytest.approx(1.5)
