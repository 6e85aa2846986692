"""A seat whose DMs were closed is sent a new panel there once a hand, the try claimed in
the database first. The claim's save failing (the database locked, the disk), memory had
the hand marked tried all the same, and the panel waited for the next hand, though the
database had no try (review152). Now a try whose claim was not saved is made again at the
hand's next delivery. SimCord, a real SQLite file, a trigger failing the claim."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cogs.umtali.reminders import turn_of
from tests.discord_helpers import World, flush, play_out
from tests.slow_retries import (
    RETRY,
    slow_retries,  # noqa: F401 (an autouse fixture)
)
from tests.test_dms_again import _open_dms, refused_from_the_start


async def test_a_try_whose_claim_failed_is_made_again_within_the_hand(
        world: World, db_path: Path) -> None:
    live, bob = await refused_from_the_start(world)
    _open_dms(world)
    with sqlite3.connect(db_path) as db:
        db.execute(f"CREATE TRIGGER claim_fails BEFORE UPDATE OF dm_tried{bob} ON matches "
                   "BEGIN SELECT RAISE(ABORT, 'database is locked'); END")
    hand = turn_of(live)[:2]
    while turn_of(live)[:2] == hand:
        await play_out(world, live, moves=1)
    await flush(world)
    assert live.dm_refused[bob]  # the new hand's try: its claim failed
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TRIGGER claim_fails")
    hand = turn_of(live)[:2]
    await world.env.advance_time(RETRY + 1)
    await flush(world)
    await play_out(world, live, moves=2)
    await flush(world)
    assert not live.over and turn_of(live)[:2] == hand
    assert not live.dm_refused[bob], "the panel waited for the next hand"
