"""A lease renewal that fails is tried again at the next tick, not a whole renewal period
later (fix160): the time of the renewal was noted before its save, so the database busy a few
seconds (SQLite locked past its busy timeout) left two tries before the lease lapsed, and
another process could take the match while this one plays it. Nor is it tried at once by the
tick and the task beside it, one after the other. SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.owners import RENEW_AGAIN, RENEW_EVERY
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of
from tests.test_faults_timers import db_row


async def test_a_renewal_that_failed_is_tried_again_at_the_next_tick(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = main_of(world)
    owners = svc.owners
    renew, tries = owners.leases.renew, []

    async def locked(*args: Any, **kwargs: Any) -> set[int]:
        tries.append(world.clock.now)
        raise sqlite3.OperationalError("database is locked")

    world.clock.advance(RENEW_EVERY)  # (a renewal due)
    monkeypatch.setattr(owners.leases, "renew", locked)
    with pytest.raises(sqlite3.OperationalError):
        await owners.renew(world.clock.now)
    # The task beside the tick asks a moment later: not tried again at once.
    assert not await owners.renew(world.clock.now)
    assert len(tries) == 1
    monkeypatch.setattr(owners.leases, "renew", renew)
    before = db_row(db_path, live.id)["lease_until"]
    world.clock.advance(RENEW_AGAIN)
    assert await owners.renew(world.clock.now), "not renewed until a period went by"
    assert db_row(db_path, live.id)["lease_until"] > before
    # Renewed: the next one a period on.
    world.clock.advance(RENEW_AGAIN)
    assert not await owners.renew(world.clock.now)
