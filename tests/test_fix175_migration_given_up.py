"""fix175 (review163 F3): the withdrawals the ticks gave up before fix170 were left ``unsaid``
1 with ``said_after`` NULL, in the ticks' partial index for good (fix170 gives them up as 2).
Migration 38 gives them up as since; the owed, the said and those given up since stay as they
are. On both backends."""

from __future__ import annotations

from pathlib import Path

from data.db import Database
from data.migrations import MIGRATIONS
from data.store import Store
from tests.test_fix162_stops_store import ADA, CY, NOW

#: A challenge's withdrawal state before migration 38: (unsaid, said_after).
BEFORE = {"given up before fix170": (1, None), "owed": (1, NOW + 60.0),
          "given up since": (2, None), "said": (0, NOW + 60.0), "never withdrawn": (0, None)}


async def test_withdrawals_given_up_before_fix170_leave_the_ticks_index(
        empty_target: str | Path) -> None:
    db = await Database.open(empty_target, schema=37)
    ids = {}
    try:
        # As the version before wrote them (schema 37).
        async with db.transaction() as c:
            for n, (state, (unsaid, said_after)) in enumerate(BEFORE.items()):
                row = await c.fetchone(
                    "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, "
                    "challenger_name, opponent_name, variant, optional_melding, turn_timer, "
                    "created_at, expires_at, status, message_id, unsaid, said_after) VALUES "
                    "(?, ?, ?, ?, 'ada', 'cy', 'standard', 0, 300, ?, ?, 'cancelled', ?, ?, ?) "
                    "RETURNING id", (10 + n, 11 + n, ADA, CY, NOW, NOW + 600, 10**18 + n,
                                     unsaid, said_after))
                assert row is not None
                ids[state] = int(row["id"])
    finally:
        await db.close()
    store = await Store.open(empty_target)
    try:
        assert await store.db.schema_version() == len(MIGRATIONS)
        rows = await store.db.fetchall("SELECT id, unsaid, said_after FROM challenges")
        after = {int(r["id"]): (int(r["unsaid"]), r["said_after"]) for r in rows}
        assert {state: after[ids[state]] for state in BEFORE} == {
            **BEFORE, "given up before fix170": (2, None)}
        # Out of the ticks' index: never claimed, owed to a click still.
        assert [ch.id for ch in await store.claim_withdrawals(NOW + 10**6, 50)] == \
            [ids["owed"]]
        given_up = await store.challenge(ids["given up before fix170"])
        assert given_up is not None and given_up.unsaid
    finally:
        await store.close()
