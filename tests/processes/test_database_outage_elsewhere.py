"""The database failing with two processes (review132, ``db_outage``): a player's move reaches
the process not holding the match, 2 s before the turn's deadline, and fails to save (the
database out of reach for both). The holder's clock judges the turn and heard of no failure
until its own (its lease renewal, 4 s past the deadline): it took the outage to begin then,
and at the first check after the database came back, forfeited the player on time. The
holder takes it to have begun at its last write known to work (its renewal a moment before),
gives the turn that time back, and the player's retry through the other process is played.

SimCord, virtual time, on SQLite and PostgreSQL: every write of both processes refused as the
backend refuses it when it is out of reach (reads go on)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest
from simcord import assert_error

from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import BUSY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, start_match, thread_of
from tests.processes.helpers import main_of, process, settle, via
from tests.test_clocks_late_moves import REFUSED
from umtali.players import GreedyPlayer


class Down:
    """Every write of the given services' stores refused while ``on``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *services: MatchService) -> None:
        self.on = False
        for svc in services:
            db = svc.store.db
            self._refuse(monkeypatch, db, db._begin, db.dialect)

    def _refuse(self, monkeypatch: pytest.MonkeyPatch, db: Any, real: Any,
                dialect: str) -> None:
        @asynccontextmanager
        async def begin() -> AsyncIterator[Any]:
            if self.on:
                if dialect == "sqlite":
                    raise sqlite3.OperationalError("database is locked")
                raise asyncpg.exceptions.ConnectionFailureError("connection to server lost")
            async with real() as tx:
                yield tx

        monkeypatch.setattr(db, "_begin", begin)


async def _move_via(world: World, svc: MatchService, match_id: int) -> Any:
    """The seat to act types its greedy move, its command reaching ``svc``: the answer."""
    live = await svc.lookup(match_id)
    assert live is not None
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    with via(world, svc):
        answer = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                                 move=str(move))
    await settle(world, svc)
    return answer


def _said(answer: Any) -> str:
    return answer.response.content if answer.response is not None else ""


async def test_a_move_failed_elsewhere_is_not_forfeited_by_the_holder(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    await settle(world, main)
    assert live.deadline is not None
    deadline, version = live.deadline, live.version
    async with process(world, store_target, "p2") as other:
        # The holder renews its leases a moment before the database fails.
        world.clock.now = deadline - 3
        await main.check_timers(now=world.clock.now)
        down = Down(monkeypatch, main, other)
        down.on = True
        world.clock.now = deadline - 2
        answer = await _move_via(world, other, live.id)
        assert BUSY[:30] in _said(answer), _said(answer)
        assert_error(world.env, contains="connection to server lost"
                     if isinstance(store_target, str) else "database is locked")
        # The holder's check after the deadline: its renewal fails too.
        world.clock.now = deadline + LATE + 1
        await main.check_timers(now=world.clock.now)
        await settle(world, main)
        assert not live.over
        down.on = False
        world.clock.now = deadline + 8
        await main.check_timers(now=world.clock.now)
        await settle(world, main)
        assert not live.over, "forfeited by the holder for the database's failure"
        # Back at deadline + 8 with the seconds it had then (3, dated back to the last
        # save that worked) below the floor: the floor, 60 s from its return.
        assert live.deadline == pytest.approx(deadline + 8 + 60, abs=0.5)
        world.clock.now = deadline + 10
        answer = await _move_via(world, other, live.id)
        assert REFUSED not in _said(answer), _said(answer)
        saved = await main.store.match(live.id)
        assert saved is not None and saved.version == version + 1
