"""fix128: two processes creating challenges at once on one database. The limits against spam
are read and the challenge inserted in one transaction: SQLite has one writer at a time, but
PostgreSQL's transactions (READ COMMITTED) each read before the other's insert was committed,
so both passed "one open challenge per pair". Now they take turns on the server's key
(``Tx.serialise``). Both backends."""

from __future__ import annotations

import asyncio

from data.store import Refused, Store

SNOWFLAKE = 1_300_000_000_000_000_000


async def _offer(store: Store, challenger: int, opponent: int, now: float) -> str:
    try:
        await store.create_challenge(
            guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1, challenger=(challenger, "a"),
            opponent=(opponent, "b"), variant="english", optional_melding=False,
            turn_timer=300, ttl=600, now=now)
    except Refused as e:
        return e.reason
    return "made"


async def test_two_processes_challenging_one_pair_at_once_make_one(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    ada, ben = SNOWFLAKE + 2, SNOWFLAKE + 3
    now = 1_800_000_000.0
    for round_ in range(5):
        a, b = ada + 10 * round_, ben + 10 * round_
        # Each challenges the other, from another process, at once.
        said = await asyncio.gather(_offer(one, a, b, now), _offer(two, b, a, now))
        assert sorted(said) == ["made", "pair"], said
