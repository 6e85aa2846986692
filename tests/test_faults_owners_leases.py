"""Leases (data/leases.py) of matches a process holds in the database but not in memory (a
takeover's read failed): not renewed, claimed again once lapsed, and a claim undone. On one
SQLite file or one PostgreSQL database, between two connections as two processes have."""

from __future__ import annotations

from data.leases import Leases
from data.store import Store


async def _match(store: Store, n: int, owner: str, lease_until: float) -> int:
    return await store.create_match(
        guild_id=10, channel_id=5 + n, players=((2 * n + 1, "Ada"), (2 * n + 2, "Ben")),
        variant="english", turn_timer=300, state="{}", deadline=123.0, owner=owner,
        lease_until=lease_until)


async def _lease(store: Store, match_id: int) -> tuple[str, float]:
    row = await store.db.fetchone("SELECT owner, lease_until FROM matches WHERE id = ?",
                                  (match_id,))
    assert row is not None
    return str(row["owner"]), float(row["lease_until"])


async def test_only_the_matches_in_memory_are_renewed_and_a_lapsed_one_comes_back(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    kept, orphan = await _match(one, 1, "a", 115.0), await _match(one, 2, "a", 115.0)
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    assert await a.renew(130.0, [kept]) == set()
    assert await _lease(one, kept) == ("a", 130.0)
    assert await _lease(one, orphan) == ("a", 115.0)
    # Lapsed: its own process claims it back (or any other would).
    assert [c.match_id for c in await a.claim(120.0, 135.0)] == []
    got = await a.claim(120.0, 135.0, lapsed_mine=True)
    assert [(c.match_id, c.previous) for c in got] == [(orphan, "a")]
    assert await b.claim(121.0, 136.0) == []  # held again, until 135


async def test_an_undone_claim_leaves_the_match_as_it_was_unless_touched_since(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    first, second = await _match(one, 1, "gone", 50.0), await _match(one, 2, "gone", 50.0)
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    claimed = {c.match_id: c for c in await a.claim(100.0, 115.0)}
    assert set(claimed) == {first, second}
    assert await b.take(second, 120.0)  # a player acted on it in the other process
    for c in claimed.values():
        await a.unclaim(c, 115.0, 100.0)
    assert await _lease(one, first) == ("gone", 50.0)
    assert await _lease(one, second) == ("b", 120.0)
    # Claimable again at once, by anyone, with its previous holder's lease.
    got = await b.claim(101.0, 116.0)
    assert [(c.match_id, c.previous, c.lease_until) for c in got] == [(first, "gone", 50.0)]


async def test_an_undone_restart_claim_lapses_at_once(stores: tuple[Store, Store]) -> None:
    one, two = stores
    match_id = await _match(one, 1, "a", 110.0)  # "a" restarts before its lease ran out
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    [c] = await a.claim(100.0, 115.0, mine_too=True)
    await a.unclaim(c, 115.0, 100.0)
    assert await _lease(one, match_id) == ("a", 0.0)
    assert [c.match_id for c in await b.claim(101.0, 116.0)] == [match_id]
