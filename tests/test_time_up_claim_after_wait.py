"""The time-up question answered twice, by copies of the match read at the same version: the
waiting player's "keep waiting" saved (the absent player's turn running again, said in the
thread), then a "claim the win" judged on a copy read before it (another process's, or a
second click's), which still shows the clock stopped. That claim was saved too: the match
ended timed out, recorded, after the players were told it went on (review152). A claim now
ends the match only on a clock stopped as saved. SimCord, a second process on the same
SQLite file."""

from __future__ import annotations

from pathlib import Path

from cogs.umtali.service import MatchService
from cogs.umtali.time_up_answer import decide
from tests.discord_helpers import World, flush
from tests.processes.helpers import main_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import time_up


async def test_a_claim_read_before_keep_waiting_was_saved_ends_nothing(
        world: World, db_path: Path, other: MatchService) -> None:
    main = main_of(world)
    live, _ = await time_up(world)
    version = live.version
    stale = await other.lookup(live.id)  # the claim's click: read, the clock stopped
    assert stale is not None and stale.deadline is None
    # "Keep waiting", through the holder: saved, the turn runs again.
    assert await decide(main, live, version, claim=False)
    await flush(world)
    assert db_row(db_path, live.id)["deadline"] is not None
    # The claim goes on with its copy: refused, nothing saved.
    assert not await decide(other, stale, version, claim=True)
    row = db_row(db_path, live.id)
    assert (row["status"], row["how"]) == ("active", None), (row["status"], row["how"])
    assert not live.over


async def test_a_claim_on_the_stopped_clock_still_ends_the_match(
        world: World, db_path: Path) -> None:
    main = main_of(world)
    live, _ = await time_up(world)
    assert await decide(main, live, live.version, claim=True)
    await flush(world)
    row = db_row(db_path, live.id)
    assert (row["status"], row["how"]) == ("finished", "timed out")
    assert live.over
