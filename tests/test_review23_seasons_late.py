"""review23: a session counted late, after its season ended, when the next season opened is a
quarter already under way (the server switched from monthly to quarterly mid-quarter): it was
played in the month that ended, and is rated into no season, as docs/DATABASE.md says, not
into the quarter (which began, for this server, only when that month ended)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import records
from data.models import PlayerStats
from data.store import Store
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at, seasons_on


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()



async def uncounted(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cy beats ada on 20 November, the result's count failing (left for the next start)."""
    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    monkeypatch.setattr(records, "seat_stats", broken)
    await forfeited(store, CY, ADA, now=at(2026, 11, 20))
    monkeypatch.undo()


async def test_a_month_counted_late_is_not_rated_into_the_quarter_that_followed_it(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 11, 5))
    await seasons_on(store, "quarterly")  # from the next season on: November runs to its end
    # A November result left uncounted (its count failed), counted at the next start.
    await uncounted(store, monkeypatch)
    [end] = await store.seasons.end_due(at(2026, 12, 1))
    assert (end.season, end.next_season) == ("2026-11", "2026-Q4")
    await forfeited(store, BEN, ADA, now=at(2026, 12, 3))
    november = await store.seasons.board(GUILD, "2026-11", 1)
    quarter = await store.seasons.board(GUILD, "2026-Q4", 1)
    assert await store.count_backlog() == 1  # the next start
    assert await store.seasons.board(GUILD, "2026-11", 1) == november
    # Cy played no session in the quarter (which began on 1 December here): not on its board.
    assert await store.seasons.board(GUILD, "2026-Q4", 1) == quarter
    assert CY[0] not in {r.user_id for r in quarter.rows}


async def test_a_month_counted_late_opens_no_quarter_once_seasons_are_on_again(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seasons off in November (its season runs to its end, none follows), then on again,
    quarterly, in December: a November result counted late opens no quarter for itself."""
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 11, 5))
    await seasons_on(store, "off")
    await uncounted(store, monkeypatch)
    [end] = await store.seasons.end_due(at(2026, 12, 1))
    assert (end.season, end.next_season) == ("2026-11", None)
    await seasons_on(store, "quarterly")
    assert await store.count_backlog() == 1  # the next start, before anyone plays
    assert [s.season for s in await store.seasons.of(GUILD)] == ["2026-11"]
    await forfeited(store, BEN, ADA, now=at(2026, 12, 3))
    quarter = await store.seasons.board(GUILD, "2026-Q4", 1)
    assert CY[0] not in {r.user_id for r in quarter.rows}
