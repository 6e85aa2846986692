"""Counting a finished session when it meets trouble: another process holding a player's rating
lock too long fails the ending as a whole (tried again like any failed save), and results left
uncounted are swept while the bot runs, oldest first, not only at the next start."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from cogs.umtali.saved import finish_of
from data import pg_db, records
from data.models import PlayerStats
from data.ratings import MODEL
from data.store import Store
from tests.test_records import GUILD, state
from umtali.rules import RuleSet
from umtali.session import Session

ADA, BEN, CY, DAN = (1, "Ada"), (2, "Ben"), (3, "Cy"), (4, "Dan")
ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def new_match(store: Store, winner: tuple[int, str],
                    loser: tuple[int, str]) -> tuple[int, Session]:
    session = Session(RuleSet.english(), 7)
    match_id = await store.create_match(
        guild_id=GUILD, channel_id=1, players=(winner, loser), variant="english",
        turn_timer=0, state=state(session), deadline=None)
    session.resign(1, "resigned")
    return match_id, session


async def resign(store: Store, match_id: int, session: Session, now: float) -> None:
    await store.finish_match(match_id=match_id, version=0, state=state(session),
                             finish=finish_of(session), now=now)


async def recorded(store: Store, match_id: int) -> int | None:
    row = await store.db.fetchone("SELECT recorded FROM session_results WHERE match_id = ?",
                                  (match_id,))
    return None if row is None else int(row[0])


async def rating_before(store: Store, match_id: int, seat: int) -> float:
    row = await store.db.fetchone(
        "SELECT rating_before FROM session_players WHERE match_id = ? AND seat = ?",
        (match_id, seat))
    assert row is not None
    return float(row[0])


class Holder:
    """Another process's transaction holding some players' rating locks until released."""

    def __init__(self, store: Store, ids: list[int]) -> None:
        self.store, self.ids = store, ids
        self.held, self.release = asyncio.Event(), asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Holder:
        self.task = asyncio.create_task(self._hold())
        await self.held.wait()
        return self

    async def _hold(self) -> None:
        async with self.store.db.transaction() as tx:
            await tx.serialise(self.ids)
            self.held.set()
            await self.release.wait()

    async def __aexit__(self, *exc: object) -> None:
        self.release.set()
        assert self.task is not None
        await self.task


@pytest.fixture
async def two(store_target: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[
        tuple[Store, Store]]:
    """Two processes on one PostgreSQL; the second waits half a second for a lock, not 5."""
    other = await Store.open(store_target)
    monkeypatch.setattr(pg_db, "BUSY_TIMEOUT", 0.5)
    this = await Store.open(store_target)
    yield other, this
    await this.close()
    await other.close()


@ON_POSTGRESQL
async def test_a_rating_lock_held_too_long_fails_the_ending_as_a_whole(
        two: tuple[Store, Store]) -> None:
    other, this = two
    match_id, session = await new_match(this, ADA, BEN)
    async with Holder(other, [ADA[0]]):  # a long count elsewhere, holding Ada's rating
        with pytest.raises(asyncpg.LockNotAvailableError):
            await resign(this, match_id, session, now=1000.0)
        # Nothing of the ending is kept: the match is in play, as memory still has it.
        row = await this.match(match_id)
        assert row is not None and row.status == "active"
        assert await recorded(this, match_id) is None
        assert await this.db.fetchall("SELECT * FROM ratings") == []
    # Tried again (a resign clicked again, a forfeit at the clock's next tick): all counted.
    await resign(this, match_id, session, now=1001.0)
    assert await recorded(this, match_id) == 1
    assert (await this.records.record(GUILD, ADA[0])).rated.sessions_won == 1
    assert len(await this.db.fetchall("SELECT * FROM ratings")) == 4  # 2 people, 2 scopes


@ON_POSTGRESQL
async def test_a_sweep_that_meets_a_held_lock_stops_there_and_keeps_the_order(
        two: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    other, this = two
    # Two results left uncounted (their counts failed), Ada's the older.
    monkeypatch.setattr(records, "seat_stats", broken)
    older, s1 = await new_match(this, ADA, BEN)
    await resign(this, older, s1, now=1000.0)
    newer, s2 = await new_match(this, CY, DAN)
    await resign(this, newer, s2, now=2000.0)
    monkeypatch.undo()
    async with Holder(other, [BEN[0]]):
        assert await this.sweep_uncounted() == 0  # no error raised, nothing skipped ahead
        assert (await recorded(this, older), await recorded(this, newer)) == (0, 0)
    assert await this.sweep_uncounted() == 2
    assert (await recorded(this, older), await recorded(this, newer)) == (1, 1)


def broken(*args: object) -> PlayerStats:
    raise RuntimeError("stats on fire")


async def test_results_left_uncounted_are_swept_while_running_oldest_first(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "seat_stats", broken)
    first, s1 = await new_match(store, ADA, BEN)
    await resign(store, first, s1, now=1000.0)
    second, s2 = await new_match(store, BEN, ADA)
    await resign(store, second, s2, now=2000.0)
    monkeypatch.undo()
    assert await store.sweep_uncounted() == 2
    # Counted in the order played: the first from the starting rating, the second after it.
    start = MODEL.rating().ordinal()
    assert await rating_before(store, first, 0) == pytest.approx(start)
    assert await rating_before(store, second, 1) > start
    assert await store.sweep_uncounted() == 0


async def test_a_result_whose_count_fails_in_a_sweep_is_not_retried_every_tick(
        store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(records, "seat_stats", broken)
    match_id, session = await new_match(store, ADA, BEN)
    await resign(store, match_id, session, now=1000.0)
    assert await store.sweep_uncounted() == 0
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        assert await store.sweep_uncounted() == 0
    assert "stats on fire" not in caplog.text  # passed by, not logged again every minute
    monkeypatch.undo()
    assert await store.sweep_uncounted() == 0
    assert await store.count_backlog() == 1  # the next start tries it again
