"""History and head-to-head in one order on both backends, even for sessions that ended in the
same instant: newest first, then the later match first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import Store
from tests.test_records import GUILD, forfeited

ADA, BEN, CY = (1, "Ada"), (2, "Ben"), (3, "Cy")


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_sessions_ending_in_the_same_instant_come_in_match_order(store: Store) -> None:
    older = await forfeited(store, ADA, BEN, now=500.0)
    tied = [await forfeited(store, winner, loser, now=1000.0)
            for winner, loser in ((ADA, BEN), (BEN, ADA), (ADA, CY), (ADA, BEN))]
    newest = await forfeited(store, BEN, ADA, now=2000.0)
    everything = [newest, *reversed(tied), older]
    recent = await store.records.recent(GUILD, ADA[0], limit=10)
    assert [s.match_id for s in recent] == everything
    # The limit falls among the ties: the later matches are the ones kept.
    for limit in range(1, 7):
        recent = await store.records.recent(GUILD, ADA[0], limit=limit)
        assert [s.match_id for s in recent] == everything[:limit]
    versus = [m for m in everything if m != tied[2]]  # Ada against Ben alone
    for limit in (1, 2, 3, 10):
        h2h = await store.records.head_to_head(GUILD, ADA[0], BEN[0], limit=limit)
        assert [s.match_id for s in h2h.recent] == versus[:limit]
    assert (h2h.won, h2h.lost) == (3, 2)
    assert await store.records.recent(GUILD, ADA[0], limit=0) == []
    assert await store.records.recent(GUILD, CY[0], limit=3) == [
        s for s in await store.records.recent(GUILD, ADA[0], limit=10) if s.match_id == tied[2]]
