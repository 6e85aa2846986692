"""Two processes on one PostgreSQL: one counts a session in the last moment of a season while the
other's tick ends that season. Rating into a season and ending it take turns, so the session is
in the season and its players are carried over into the next."""

from __future__ import annotations

import asyncio
import datetime as dt
import time

import pytest

from data import records
from data.seasons import SeasonEnd, rate_season
from data.store import Store
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at, seasons_on

pytestmark = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


async def blocked_or_done(store: Store, task: asyncio.Task[list[SeasonEnd]]) -> None:
    """Until ``task`` waits for a lock another transaction holds, or is over."""
    give_up = time.monotonic() + 5
    while not task.done() and time.monotonic() < give_up:
        waiting = await store.db.fetchone("SELECT COUNT(*) FROM pg_locks WHERE NOT granted")
        if waiting is not None and waiting[0] > 0:
            return
        await asyncio.sleep(0.01)


async def test_a_session_counted_while_another_process_ends_its_season_is_carried_over(
        store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ticker = await Store.open(store_target)   # its season tick runs at midnight
    counter = await Store.open(store_target)  # ends a session a second before
    try:
        await seasons_on(ticker)
        await forfeited(ticker, ADA, BEN, now=at(2026, 12, 10))
        real = rate_season
        ticks: list[asyncio.Task[list[SeasonEnd]]] = []

        async def rate_as_the_tick_runs(*args: object) -> list[tuple[float, float]]:
            # The counter has found December open; the other process's tick starts now.
            ticks.append(asyncio.create_task(ticker.seasons.end_due(at(2027, 1, 1))))
            await blocked_or_done(ticker, ticks[0])
            return await real(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(records, "rate_season", rate_as_the_tick_runs)
        last = dt.datetime(2026, 12, 31, 23, 59, 59, tzinfo=dt.UTC).timestamp()
        await forfeited(counter, CY, ADA, now=last)
        monkeypatch.undo()
        [end] = await ticks[0]
        assert (end.season, end.next_season) == ("2026-12", "2027-01")
        december = await ticker.seasons.board(GUILD, "2026-12", 1)
        assert {r.user_id: r.sessions for r in december.rows} == {1: 2, 2: 1, 3: 1}
        carried = await ticker.db.fetchall(
            "SELECT user_id FROM season_ratings WHERE guild_id = ? AND season = '2027-01'",
            (GUILD,))
        assert sorted(r["user_id"] for r in carried) == [1, 2, 3]
    finally:
        await counter.close()
        await ticker.close()
