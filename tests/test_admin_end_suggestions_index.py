"""fix137: ``/umtali-admin end-match``'s suggestions of a server's matches in play, asked on
every keystroke, read through their own index (``matches_in_play``, migration 32), newest
first and stopped at the 25th, on SQLite and PostgreSQL: a server's many matches are not all
read, nor any other server's."""

from __future__ import annotations

from typing import Any

from data.db import Row
from data.store import Store
from tests.test_leases_index import _plan


async def test_the_suggestions_read_the_matches_in_play_by_their_index(
        stores: tuple[Store, Store]) -> None:
    one, _ = stores
    asked: list[tuple[str, tuple[Any, ...]]] = []
    fetchall = one.db.fetchall

    async def noted(sql: str, params: Any = ()) -> list[Row]:
        asked.append((sql, tuple(params)))
        return await fetchall(sql, params)

    one.db.fetchall = noted  # type: ignore[method-assign]
    try:
        for typed in ("", "12", "ada"):
            assert await one.in_play_in(7, typed) == []
    finally:
        del one.db.fetchall
    assert len(asked) == 3
    for sql, params in asked:
        plan = await _plan(one, sql, params)
        assert "matches_in_play" in plan, plan
        assert "TEMP B-TREE" not in plan and "Sort" not in plan, plan  # (read in id order)
