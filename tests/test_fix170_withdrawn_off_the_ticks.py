"""fix170 (review160): what the timers' tick need not read again. A withdrawal given up by
the ticks leaves their index (``unsaid = 1``: it stayed there for good), owed to a click on
its buttons still; one whose message's id the database never got (only its poster may know
it) is moved on to its expiry (it was read again at every tick until then). Two servers in
one SimCord, on a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from tests.discord_helpers import World, custom_ids, flush
from tests.test_fix161_stop_withdraws import Elsewhere, _declined_here
from tests.test_fix162_stop_challenges import _stop
from tests.test_fix165_withdrawn_said_later import WITHDRAWN
from tests.test_fix167_withdrawn_given_up import _fail, _ticks, _withdrawn_unknown


def _row(db_path: Path, challenge_id: int) -> tuple[int, float | None, float]:
    with sqlite3.connect(db_path) as c:
        unsaid, said_after, expires_at = c.execute(
            "SELECT unsaid, said_after, expires_at FROM challenges WHERE id = ?",
            (challenge_id,)).fetchone()
    return int(unsaid), said_after, float(expires_at)


def _in_index(db_path: Path) -> int:
    """Rows of the ticks' partial index (``challenges_unsaid``, ``WHERE unsaid = 1``)."""
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM challenges WHERE unsaid = 1").fetchone()[0])


async def test_a_withdrawal_given_up_leaves_the_ticks_index(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    there = await Elsewhere(world).challenged(world)
    _fail(world, there, None)
    await _stop(world, await _declined_here(world), world.carol)
    await flush(world)
    assert _in_index(db_path) == 1
    await _ticks(world, 2 * 3600)
    warned = [r for r in caplog.records if r.levelno == logging.WARNING
              and f"challenge {there.id} withdrawn" in r.getMessage()]
    assert len(warned) == 1, [r.getMessage() for r in warned]
    warned[0].expected = True  # (the conftest's mark)
    assert _in_index(db_path) == 0, "a withdrawal given up stayed in the ticks' index"
    world.env.backend.faults.clear()
    button = next(c for c in there.buttons if c.endswith(":decline"))
    clicked = await there.cy.click(there.posted.response, custom_id=button)
    await flush(world)
    assert clicked.acknowledged and custom_ids(there.message) == []
    assert WITHDRAWN in str(there.message.embeds[0].description)
    assert _row(db_path, there.id)[0] == 0


async def test_an_unknown_message_is_not_looked_for_again_until_its_expiry(
        world: World, db_path: Path) -> None:
    there = await _withdrawn_unknown(world, db_path)
    await _ticks(world, 70)
    unsaid, said_after, expires_at = _row(db_path, there.id)
    assert unsaid == 1 and said_after == expires_at, "read again at every tick"
    await _ticks(world, 600)
    assert _row(db_path, there.id)[0] == 0
    assert custom_ids(there.message) == there.buttons
