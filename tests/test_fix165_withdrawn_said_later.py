"""A challenge a stop withdrew on another server, whose message's edit failed for now (a 503,
a restart between the stop's save and the edits): the message is put right later (review158,
a regression of fix161: closed as ``cancelled``, expiry no longer edited it, and its buttons
stayed for good). Saved as owed with the stop (``challenges.unsaid``), said by the timers'
expiry tick, and by a click on its buttons meanwhile. Two servers in one SimCord, on a real
SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from cogs.umtali.challenge_expiry import expire_challenges
from tests.discord_helpers import World, custom_ids, flush
from tests.test_fix161_stop_withdraws import Elsewhere, _declined_here, _status
from tests.test_fix162_stop_challenges import _stop

WEEK = 7 * 24 * 3600.0
WITHDRAWN = "**Этот вызов отозван.**"


def _unsaid(db_path: Path, challenge_id: int) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT unsaid FROM challenges WHERE id = ?",
                             (challenge_id,)).fetchone()[0])


async def _stopped_unshown(world: World, db_path: Path) -> Elsewhere:
    """ada's challenge to cy on the other server, withdrawn by cy's stop here, its message's
    edit failing for now (a 503): shown open still, its buttons on."""
    there = await Elsewhere(world).challenged(world)
    path = f"/channels/{there.channel.id}/messages/{there.posted.response.id}"
    world.env.inject_error("PATCH", path, status=503, code=0, message="Unavailable")
    clicked = await _declined_here(world)
    await _stop(world, clicked, world.carol)
    await flush(world)
    assert _status(db_path, there.id) == "cancelled"
    assert custom_ids(there.message) == there.buttons
    assert _unsaid(db_path, there.id) == 1
    return there


async def test_a_withdrawal_not_shown_for_now_is_shown_by_the_timers(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    there = await _stopped_unshown(world, db_path)
    world.clock.advance(WEEK)
    await expire_challenges(world.bot)
    await flush(world)
    shown = there.message
    assert custom_ids(shown) == [], "the withdrawn challenge's buttons stayed for good"
    assert WITHDRAWN in str(shown.embeds[0].description)
    assert _status(db_path, there.id) == "cancelled" and _unsaid(db_path, there.id) == 0
    # Said once: the next tick leaves it.
    before = len(world.env.http_requests)
    world.clock.advance(60)
    await expire_challenges(world.bot)
    await flush(world)
    assert len(world.env.http_requests) == before
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_click_on_a_withdrawal_not_shown_shows_it(
        world: World, db_path: Path) -> None:
    there = await _stopped_unshown(world, db_path)
    button = next(c for c in there.buttons if c.endswith(":decline"))
    clicked = await there.cy.click(there.posted.response, custom_id=button)
    await flush(world)
    assert clicked.acknowledged
    shown = there.message
    assert custom_ids(shown) == [], "a click left the withdrawn challenge's buttons on"
    assert WITHDRAWN in str(shown.embeds[0].description)
    assert _unsaid(db_path, there.id) == 0


async def test_a_withdrawal_the_bot_stopped_before_showing_is_shown_by_the_timers(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stopped between the stop's save and its edits: none tried, the withdrawal is
    owed as saved, and said by the timers' tick (not before its minute: the stop's own edits
    are done by then)."""
    there = await Elsewhere(world).challenged(world)
    clicked = await _declined_here(world)

    async def stopped_first(*args: object) -> None:
        return None

    import cogs.umtali.stops

    said = cogs.umtali.stops.say_withdrawn
    monkeypatch.setattr(cogs.umtali.stops, "say_withdrawn", stopped_first)
    await _stop(world, clicked, world.carol)
    await flush(world)
    monkeypatch.setattr(cogs.umtali.stops, "say_withdrawn", said)  # (started again)
    assert _unsaid(db_path, there.id) == 1 and custom_ids(there.message) == there.buttons
    await expire_challenges(world.bot)
    await flush(world)
    assert custom_ids(there.message) == there.buttons
    world.clock.advance(61)
    await expire_challenges(world.bot)
    await flush(world)
    assert custom_ids(there.message) == []
    assert WITHDRAWN in str(there.message.embeds[0].description)
    assert _unsaid(db_path, there.id) == 0
