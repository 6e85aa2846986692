"""Every process looks for lapsed leases every second (``Leases.claim``): that look reads the
matches some process must still hold through their own index (``matches_live``, migration 12),
never the finished matches, most of the table (measured without it: 42-51 ms a look over
200,000 finished matches, on SQLite and PostgreSQL; with it, under 0.1 ms)."""

from __future__ import annotations

from typing import Any

from data.db import Row
from data.leases import Leases
from data.pg_db import numbered
from data.store import Store


async def _plan(store: Store, sql: str, params: tuple[Any, ...]) -> str:
    if store.db.dialect == "sqlite":
        rows = await store.db.fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
        return "\n".join(str(r["detail"]) for r in rows)
    async with store.db.transaction() as tx:
        conn = tx.conn  # type: ignore[attr-defined]
        # A table this small is read whole whatever its indexes: ask what it would use.
        await conn.execute("SET LOCAL enable_seqscan = off")
        rows = await conn.fetch(f"EXPLAIN {numbered(sql)}", *params)
        return "\n".join(str(r[0]) for r in rows)


async def test_looking_for_lapsed_leases_reads_only_the_live_matches(
        stores: tuple[Store, Store]) -> None:
    one, _ = stores
    asked: list[tuple[str, tuple[Any, ...]]] = []
    fetchone = one.db.fetchone

    async def noted(sql: str, params: Any = ()) -> Row | None:
        asked.append((sql, tuple(params)))
        return await fetchone(sql, params)

    one.db.fetchone = noted  # type: ignore[method-assign]
    try:
        assert await Leases(one.db, "a").claim(100.0, 115.0, lapsed_mine=True) == []
    finally:
        del one.db.fetchone
    [(sql, params)] = asked
    assert "matches_live" in await _plan(one, sql, params)
