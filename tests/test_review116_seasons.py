"""review116's findings on seasons, on both backends: a season in play when seasons are turned
off keeps counting to its end (as the manager is told), a result counted late opens no season
of a month gone by, and reads leave ending a season to its time past ``SKEW``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import Store
from tests.test_records import GUILD, forfeited
from tests.test_seasons import ADA, BEN, CY, at, seasons_on


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def sessions_in(store: Store, season: str) -> dict[int, int]:
    """Each player's rated sessions in ``season``."""
    return {r.user_id: r.sessions for r in (await store.seasons.board(GUILD, season, 1)).rows}


async def test_seasons_turned_off_mid_season_count_until_its_end(store: Store) -> None:
    await seasons_on(store, "monthly")
    await forfeited(store, ADA, BEN, now=at(2026, 12, 5))
    await seasons_on(store, "off")
    # As the manager is told: December still runs to its end, counting what is played in it.
    await forfeited(store, ADA, CY, now=at(2026, 12, 20))
    assert await sessions_in(store, "2026-12") == {ADA[0]: 2, BEN[0]: 1, CY[0]: 1}
    # Past its end, the first session counted ends it, and no season follows.
    await forfeited(store, BEN, CY, now=at(2027, 1, 3))
    assert await sessions_in(store, "2026-12") == {ADA[0]: 2, BEN[0]: 1, CY[0]: 1}
    assert [(s.season, s.ended_at is not None) for s in await store.seasons.of(GUILD)] == \
        [("2026-12", True)]
    assert await store.seasons.running(GUILD) is None
