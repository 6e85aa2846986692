"""A seat whose DMs were closed is sent a new panel there once a hand, the try claimed in
the database first. The claim's save failing (the database locked, the disk), memory had
the hand marked tried all the same, and the panel waited for the next hand, though the
database had no try (review152). Now a try whose claim was not saved is made again at the
hand's next delivery. SimCord, a real SQLite file, a trigger failing the claim."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.discord_helpers import World
from tests.slow_retries import slow_retries  # noqa: F401 (an autouse fixture)
from tests.test_dms_again import _next_hand, _open_dms, refused_from_the_start
from tests.test_review63_dms import saves_again_within_the_hand


async def test_a_try_whose_claim_failed_is_made_again_within_the_hand(
        world: World, db_path: Path) -> None:
    live, bob = await refused_from_the_start(world)
    _open_dms(world)
    with sqlite3.connect(db_path) as db:
        db.execute(f"CREATE TRIGGER claim_fails BEFORE UPDATE OF dm_tried{bob} ON matches "
                   "BEGIN SELECT RAISE(ABORT, 'database is locked'); END")
    await _next_hand(world, live)
    assert live.dm_refused[bob]  # the new hand's try: its claim failed
    await saves_again_within_the_hand(world, db_path, live, "claim_fails")
    assert not live.dm_refused[bob], "the panel waited for the next hand"
