"""fix160: the store's read behind ``/umtali-admin matches``, on SQLite and PostgreSQL: a
server's matches in play (never another server's, nor a finished one), oldest move first (its
start for a match with no move yet), at most as many as asked, with how many there are in
all; in one read, through the index of the matches in play and the moves' key."""

from __future__ import annotations

import itertools
from typing import Any

from data.db import Row
from data.store import Store
from tests.test_leases_index import _plan

#: Members' ids: one member plays one match at a time on a server.
_ids = itertools.count(1)


async def _match(store: Store, guild_id: int, now: float) -> int:
    return await store.create_match(
        guild_id=guild_id, channel_id=guild_id + 1,
        players=((next(_ids), "ada"), (next(_ids), "ben")),
        variant="english", turn_timer=300, state="{}", deadline=None, now=now)


async def _move(store: Store, match_id: int, version: int, now: float) -> None:
    await store.record_move(match_id=match_id, version=version, seat=version % 2, move="draw",
                            state="{}", deadline=None, now=now)


async def test_a_servers_matches_oldest_move_first(stores: tuple[Store, Store]) -> None:
    one, two = stores
    server = 10
    moved_late = await _match(one, server, 100.0)
    await _move(one, moved_late, 0, 150.0)
    await _move(one, moved_late, 1, 900.0)
    never_moved = await _match(one, server, 200.0)
    moved_early = await _match(one, server, 300.0)
    await _move(one, moved_early, 0, 400.0)
    await _match(one, server + 10, 50.0)  # another server's
    finished = await _match(one, server, 10.0)
    assert await one.abandon_match(finished, "abandoned", 20.0) == []
    found, total = await two.under_way_in(server)
    assert [m.match_id for m in found] == [never_moved, moved_early, moved_late]
    assert [(m.since, m.moved) for m in found] == [(200.0, False), (400.0, True),
                                                    (900.0, True)]
    assert total == 3
    assert found[0].names == ("ada", "ben") and found[0].channel_id == server + 1
    assert not found[0].channel_lost and found[0].state == "{}"
    first, counted = await two.under_way_in(server, limit=1)
    assert [m.match_id for m in first] == [never_moved] and counted == 3
    assert await two.under_way_in(server + 5) == ([], 0)


async def test_read_once_through_the_indexes(stores: tuple[Store, Store]) -> None:
    one, _ = stores
    asked: list[tuple[str, tuple[Any, ...]]] = []
    fetchall = one.db.fetchall

    async def noted(sql: str, params: Any = ()) -> list[Row]:
        asked.append((sql, tuple(params)))
        return await fetchall(sql, params)

    one.db.fetchall = noted  # type: ignore[method-assign]
    try:
        assert await one.under_way_in(7) == ([], 0)
    finally:
        del one.db.fetchall
    [(sql, params)] = asked
    plan = await _plan(one, sql, params)
    assert "matches_in_play" in plan, plan
    # Each match's last move by the moves' key, not a scan of every move.
    assert "SCAN moves" not in plan and "Seq Scan on moves" not in plan, plan
