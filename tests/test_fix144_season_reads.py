"""fix144: a leaderboard read does not end a season the tick holds open, on both backends.

Within ``seasons.LATE`` past a season's turn, the tick holds the season open while a result of
its span waits to be counted (its count failed for now; the next sweep counts it). A read (a
board asked for) more than ``SKEW`` past the turn ended the season at once meanwhile: the
result, swept next, was rated into no season, and the summary missed it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import records
from data.models import PlayerStats
from data.seasons import LATE, SKEW
from data.store import Store
from tests.test_fix133_seasons import TURN, _uncounted_id, season_of_result, seasons
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at, seasons_on


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_a_read_past_skew_leaves_the_season_to_the_late_result(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, CY, BEN, now=at(2026, 12, 5))
    match_id = await _uncounted_id(store, TURN - 0.5)
    # A board asked for past SKEW, the result still waiting: December is still the board.
    assert await store.seasons.current(GUILD, "monthly", TURN + 30) == "2026-12"
    assert await store.seasons.unannounced() == []  # not ended: no summary due yet
    # The tick's sweep counts it into December, then ends December.
    assert await store.count_backlog(now=TURN + 60) == 1
    assert await season_of_result(store, match_id) == "2026-12"
    [end] = await store.seasons.end_due(TURN + 60)
    assert (end.season, end.next_season) == ("2026-12", "2027-01")
    assert await seasons(store) == [("2027-01", True, {}),
                                    ("2026-12", False, {ADA[0]: 1, BEN[0]: 2, CY[0]: 1})]
    # The summary (posted once ended) lists Ada's late result.
    top, _ = await store.seasons.best(GUILD, "2026-12", 3, 10)
    assert {r.user_id for r in top.rows} == {ADA[0], BEN[0], CY[0]}
    assert [s[:2] for s in await store.seasons.unannounced()] == [(GUILD, "2026-12")]


async def test_past_late_a_read_ends_the_season_whatever_waits(store: Store) -> None:
    """The hold is bounded: past ``LATE`` a late result opens no season gone by (fix127),
    so a read ends the season as before."""
    await seasons_on(store, "monthly")
    await forfeited(store, CY, BEN, now=at(2026, 12, 5))
    await _uncounted_id(store, TURN - 0.5)
    assert await store.seasons.current(GUILD, "monthly", TURN + LATE) == "2027-01"
    assert [s[:2] for s in await store.seasons.unannounced()] == [(GUILD, "2026-12")]


async def test_with_nothing_waiting_a_read_past_skew_ends_the_season(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, CY, BEN, now=at(2026, 12, 5))
    assert await store.seasons.current(GUILD, "monthly", TURN + SKEW) == "2027-01"


async def test_a_result_of_another_server_holds_no_season(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, CY, BEN, now=at(2026, 12, 5))
    with pytest.MonkeyPatch.context() as patched:  # its count fails as it ends
        patched.setattr(records, "seat_stats", broken)
        await forfeited(store, ADA, BEN, guild=GUILD + 1, now=TURN - 0.5)
    assert await store.seasons.current(GUILD, "monthly", TURN + 30) == "2027-01"


async def test_no_season_open_a_read_past_skew_opens_none_before_the_sweep(
        store: Store) -> None:
    """Seasons turned on in December, nobody counted since: the late result opens December
    at the sweep (fix133). A read before it opened January in its place: the result, of
    December, was rated into none."""
    await seasons_on(store, "monthly")
    match_id = await _uncounted_id(store, TURN - 0.5)
    assert await store.seasons.current(GUILD, "monthly", TURN + 30) is None
    assert await seasons(store) == []
    assert await store.count_backlog(now=TURN + 60) == 1
    assert await season_of_result(store, match_id) == "2026-12"
    [end] = await store.seasons.end_due(TURN + 60)
    assert (end.season, end.next_season) == ("2026-12", "2027-01")
    assert await store.seasons.current(GUILD, "monthly", TURN + 61) == "2027-01"


def broken(*args: object) -> PlayerStats:
    raise RuntimeError("stats on fire")
