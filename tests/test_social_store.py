"""The store's reads for challenges, on both backends: the open challenge between two members,
either way round (what a challenge whose message is gone is looked up by)."""

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


async def test_the_open_challenge_between_two_members(store: Store) -> None:
    made = await store.create_challenge(
        guild_id=10, channel_id=5, challenger=(1, "Ada"), opponent=(2, "Ben"),
        variant="english", optional_melding=False, turn_timer=300, ttl=600.0, now=100.0)
    for one, other in ((1, 2), (2, 1)):
        found = await store.open_challenge_between(10, one, other, 200.0)
        assert found is not None and found.id == made.id
    assert await store.open_challenge_between(11, 1, 2, 200.0) is None  # another server
    assert await store.open_challenge_between(10, 1, 3, 200.0) is None  # another pair
    assert await store.open_challenge_between(10, 1, 2, 700.0) is None  # expired by then
    assert await store.close_challenge(made.id, "cancelled")
    assert await store.open_challenge_between(10, 1, 2, 200.0) is None
