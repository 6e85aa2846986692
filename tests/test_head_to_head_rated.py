"""Head-to-head counts rated sessions only, on both backends: a practice session's opponent is
the bot's own user id, and practice is counted apart (review142: "versus" the bot gave ada's
practice as a head-to-head)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.records import GLOBAL
from data.store import Store
from tests.test_records import GUILD, forfeited

ADA = (1, "Ada")
#: The bot's user id: the computer's seat in practice; here also a member's in a rated session,
#: so that only the practice filter keeps the two apart.
BOT = (99, "Computer (easy)")


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_practice_is_no_head_to_head(store: Store) -> None:
    await forfeited(store, BOT, ADA, computer="easy", now=900.0)
    h2h = await store.records.head_to_head(GUILD, ADA[0], BOT[0])
    assert (h2h.won, h2h.lost, h2h.recent) == (0, 0, ())
    # Still in ada's history and practice totals.
    assert len(await store.records.recent(GUILD, ADA[0])) == 1
    assert (await store.records.record(GLOBAL, ADA[0])).practice.sessions == 1


async def test_newer_practice_does_not_push_rated_sessions_out(store: Store) -> None:
    rated = await forfeited(store, ADA, (BOT[0], "Ben"), now=500.0)
    for n in range(4):  # newer than the rated one, more than the head-to-head lists
        await forfeited(store, BOT, ADA, computer="easy", now=1000.0 + n)
    h2h = await store.records.head_to_head(GUILD, ADA[0], BOT[0], limit=3)
    assert (h2h.won, h2h.lost) == (1, 0)
    assert [s.match_id for s in h2h.recent] == [rated]
