"""fix133: a result counted late (its count failed as it ended, swept later) into the season it
was played in leaves each player's newest name on that season's board, as on the all-time one:
it wrote the name the player had then over the one of a session counted since, and the season's
summary and the next season's carried ratings kept that older name. Both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import records
from data.models import PlayerStats
from data.seasons import SKEW, season_end
from data.store import Store
from tests.test_records import GUILD, forfeited
from tests.test_seasons import at, seasons_on

ADA, ADA_NOW, BEN = (1, "Ada"), (1, "Ada L."), (2, "Ben")


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def names_on(store: Store, season: str) -> dict[int, str]:
    return {r.user_id: r.name for r in (await store.seasons.board(GUILD, season, 1)).rows}


async def test_a_late_count_keeps_the_newest_name_in_the_season(store: Store) -> None:
    await seasons_on(store, "monthly")

    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(records, "seat_stats", broken)
        await forfeited(store, ADA, BEN, now=at(2026, 12, 20))  # counted later
    await forfeited(store, ADA_NOW, BEN, now=at(2026, 12, 28))  # renamed since
    assert await names_on(store, "2026-12") == {1: "Ada L.", 2: "Ben"}
    assert await store.count_backlog(now=at(2026, 12, 29)) == 1
    board = (await store.seasons.board(GUILD, "2026-12", 1)).rows
    assert {r.user_id: (r.name, r.sessions) for r in board} == {1: ("Ada L.", 2),
                                                                2: ("Ben", 2)}
    assert (await store.records.record(GUILD, 1)).name == "Ada L."  # as all time has it
    # Its summary and the next season's carried ratings name her as she is now.
    [end] = await store.seasons.end_due(season_end("2026-12") + SKEW)
    best, _ = await store.seasons.best(GUILD, end.season, 3, 10)
    assert {r.user_id: r.name for r in best.rows} == {1: "Ada L.", 2: "Ben"}
    carried = await store.db.fetchall(
        "SELECT user_id, name FROM season_ratings WHERE guild_id = ? AND season = '2027-01'",
        (GUILD,))
    assert {r["user_id"]: r["name"] for r in carried} == {1: "Ada L.", 2: "Ben"}
