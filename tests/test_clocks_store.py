"""A turn resumed after downtime keeps the reserve it had left (``Store.resume_turn``), on both
backends; a resume that leaves the reserve alone leaves it as saved."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import Store


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_a_resumed_turn_saves_the_reserve_left(store: Store) -> None:
    match_id = await store.create_match(
        guild_id=10, channel_id=5, players=((1, "Ada"), (2, "Ben")), variant="english",
        turn_timer=30, state="{}", deadline=400.0, now=100.0, salt="s", commitment="c",
        time_control="blitz", reserve=120.0)
    await store.resume_turn(match_id, 950.0, [], (1, 5.0))
    row = await store.match(match_id)
    assert row is not None and row.deadline == 950.0 and row.reserves == (120.0, 5.0)
    await store.resume_turn(match_id, 980.0, ["again"])
    row = await store.match(match_id)
    assert row is not None and row.deadline == 980.0 and row.reserves == (120.0, 5.0)
