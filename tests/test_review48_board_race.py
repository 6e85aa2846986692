"""A session ending (in another process) while a board's page or a person's record is read:
the page, and the record, show the board as it was at one moment, before that session or after
it, never a mix of the two (review48). Both backends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from data import ranks
from data.store import Store
from tests.test_ranks import rated
from tests.test_records import GUILD, forfeited
from tests.test_seasons import at, seasons_on

#: Ten players far ahead, and one far behind: alone on the board's second page, eleventh.
AHEAD = {i: 10.0 + i for i in range(1, 11)}
LAST = 11


def meanwhile(monkeypatch: pytest.MonkeyPatch, action: Callable[[], Awaitable[Any]]) -> None:
    """``action`` runs once, as the first place of a page is counted (after its rows are
    read): a session another process ends in that moment."""
    real = ranks.Board.ahead
    done: list[bool] = []

    async def ahead(self: ranks.Board, db: Any, params: Any, rating: float) -> int:
        if not done:
            done.append(True)
            await action()
        return await real(self, db, params, rating)

    monkeypatch.setattr(ranks.Board, "ahead", ahead)


async def test_a_page_read_while_a_session_ends_is_of_one_moment(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    reader, other = stores
    await rated(reader, {**AHEAD, LAST: -5.0})
    # Two newcomers end their first session: both rate above the last player.
    meanwhile(monkeypatch, lambda: forfeited(other, (31, "New"), (32, "Newer"), now=2000.0))
    page = await reader.records.leaderboard(GUILD, 2)
    [row] = page.rows
    # Eleven players, the last one alone on page two: eleventh, not thirteenth of eleven.
    assert (page.players, page.pages, row.user_id, row.rank) == (11, 2, LAST, 11)
    # Read again, the board has them.
    page = await reader.records.leaderboard(GUILD, 2)
    assert page.players == 13 and [r.rank for r in page.rows] == [11, 12, 13]


async def test_a_record_read_while_its_session_ends_is_of_one_moment(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    reader, other = stores
    await rated(reader, {**AHEAD, LAST: -5.0})
    # The last player wins a session against a newcomer as their record is read.
    meanwhile(monkeypatch, lambda: forfeited(other, (LAST, "Last"), (31, "New"), now=2000.0))
    record = await reader.records.record(GUILD, LAST)
    assert record.rating is not None
    # The record as it was: one session, and the eleventh place of eleven (not the old rating
    # placed on the new board, thirteenth of twelve).
    assert (record.rated.sessions, record.rating.value, record.rating.rank,
            record.rating.players) == (1, -5.0, 11, 11)
    record = await reader.records.record(GUILD, LAST)
    assert record.rating is not None and record.rated.sessions == 2
    assert record.rating.players == 12 and record.rating.value > -5.0


async def test_a_season_page_read_while_a_session_ends_is_of_one_moment(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    reader, other = stores
    await seasons_on(reader)
    # Eleven on December's board: ten who won a session, then one who lost two.
    for i in range(1, 11):
        await forfeited(reader, (i, f"P{i}"), (100 + i, f"L{i}"), now=at(2026, 12, 2) + i)
    async with reader.db.transaction() as tx:
        await tx.execute("DELETE FROM season_ratings WHERE user_id > 100")
    await forfeited(reader, (200, "Winner"), (LAST, "Last"), now=at(2026, 12, 3))
    await forfeited(reader, (201, "Winner"), (LAST, "Last"), now=at(2026, 12, 3) + 1)
    async with reader.db.transaction() as tx:
        await tx.execute("DELETE FROM season_ratings WHERE user_id >= 200")
    meanwhile(monkeypatch, lambda: forfeited(other, (31, "New"), (32, "Newer"),
                                             now=at(2026, 12, 4)))
    page = await reader.seasons.board(GUILD, "2026-12", 2)
    [row] = page.rows
    assert (page.players, row.user_id, row.rank) == (11, LAST, 11)
