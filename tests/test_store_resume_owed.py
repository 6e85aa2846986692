"""``Store.resume_turn`` with ``was`` (a database outage's payment, ``give_back._told``), on
both backends: saved only on the deadline owed on; saved again after its answer was lost, it
finds its own deadline and returns what is left to say without adding its notice twice
(review135); more owed after such a lost payment, the rest is paid (review137)."""

from __future__ import annotations

from pathlib import Path

import orjson

from data.store import Store

DEADLINE = 1.8e9 + 0.25


async def test_a_payment_is_saved_once_on_the_deadline_owed(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        match_id = await store.create_match(
            guild_id=1, channel_id=2, players=((3, "Ada"), (4, "Ben")), variant="english",
            turn_timer=300, state="{}", deadline=DEADLINE)
        paid = DEADLINE + 40.5
        assert await store.resume_turn(match_id, paid, ["told"], was=DEADLINE) == ["told"]
        # Its answer lost: paid again, it is found saved, nothing added.
        assert await store.resume_turn(match_id, paid, ["told"], was=DEADLINE) == ["told"]
        row = await store.match(match_id)
        assert row is not None and row.deadline == paid
        assert orjson.loads(row.unsent) == ["told"]
        # Owed on a deadline the turn has passed (a payment from a later one): not saved.
        assert await store.resume_turn(match_id, DEADLINE + 99, ["other"],
                                       was=DEADLINE + 50) is None
        row = await store.match(match_id)
        assert row is not None and row.deadline == paid
        assert orjson.loads(row.unsent) == ["told"]
        # More owed on the deadline a payment whose answer was lost had moved on (the
        # database failing again before it was paid again, review137): the rest is paid.
        assert await store.resume_turn(match_id, DEADLINE + 99, ["again"],
                                       was=DEADLINE) == ["told", "again"]
        row = await store.match(match_id)
        assert row is not None and row.deadline == DEADLINE + 99
    finally:
        await store.close()
