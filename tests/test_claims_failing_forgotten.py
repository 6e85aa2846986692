"""Weeks of uptime: a match this process failed to take over (the database busy for a moment)
and that another process took over instead, or that ended, leaves nothing behind here. Its
failures were counted for the warnings (``Claims._failing``) and forgotten only once brought
in here: one entry for every such match, for as long as the bot ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.claims import WARN_AGAIN
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_match
from tests.test_faults_channel import _db
from tests.test_faults_owners import _fail_once


async def test_a_match_taken_over_elsewhere_after_a_failed_claim_here_is_forgotten(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        other: MatchService) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, turn_timer=60)
    # Its holder, a third process, was killed: its lease ran out.
    _db(db_path, "UPDATE matches SET owner = 'gone', lease_until = 0")
    svc.owners.drop(live)
    _fail_once(monkeypatch, svc.store, "match")
    world.clock.now += 1
    await svc.check_timers(now=world.clock.now)
    assert live.id not in svc.matches
    # Let go, it is claimed by the other process, and ends there.
    [theirs] = await other.owners.claim()
    assert theirs.id == live.id
    await other.resign(theirs, theirs.session.to_act)
    await other.flush()
    await flush(world)
    for _ in range(3):
        world.clock.now += WARN_AGAIN
        await svc.check_timers(now=world.clock.now)
    assert not svc.tracked(live.id)
