"""fix175 (review163 F2, a regression of fix170): a withdrawal's try is counted as the tick
claims it, but ``ExpiryEdits.add`` skipped some silently (its edit under way still, or the
backlog full): tries counted, never made, and given up with no edit. And the last try, given
up in the claim, was lost with no WARNING to a restart cancelling its edit. Now the tick
claims only what its edits take at once, none being edited; the last try's failure gives it
up (one WARNING), and a last try lost gets one more. Two servers in one SimCord, on a real
SQLite file."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.stops
from cogs.umtali.archived import reopened
from cogs.umtali.challenge_expiry import ExpiryEdits, expire_challenges
from data.stops import WITHDRAWN_TRIES
from tests.discord_helpers import World, custom_ids, flush
from tests.test_fix161_stop_withdraws import Elsewhere, _declined_here
from tests.test_fix162_stop_challenges import _stop
from tests.test_fix167_withdrawn_given_up import _fail, _patches


def _row(db_path: Path, challenge_id: int) -> tuple[int, int]:
    """``(unsaid, said_tries)``."""
    with sqlite3.connect(db_path) as c:
        unsaid, tries = c.execute("SELECT unsaid, said_tries FROM challenges WHERE id = ?",
                                  (challenge_id,)).fetchone()
    return int(unsaid), int(tries)


def _warned(caplog: pytest.LogCaptureFixture, there: Elsewhere) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.WARNING
            and f"challenge {there.id} withdrawn" in r.getMessage()]


async def _owed(world: World) -> Elsewhere:
    """ada's challenge to cy on the other server, withdrawn by cy's stop, its message's edits
    failing (503) until told otherwise."""
    there = await Elsewhere(world).challenged(world)
    _fail(world, there, None)
    await _stop(world, await _declined_here(world), world.carol)
    await flush(world)
    return there


async def _ticks(world: World, edits: ExpiryEdits, seconds: int, every: int = 10) -> None:
    for _ in range(seconds // every):
        world.clock.advance(every)
        await expire_challenges(world.bot, edits=edits)
        await flush(world)


def _held(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Each edit waits until the event is set (Discord slow to answer, a rate limit)."""
    gate = asyncio.Event()

    async def gated(client: Any, channel_id: int, edit: Callable[[], Awaitable[None]]) -> None:
        await gate.wait()
        await reopened(client, channel_id, edit)

    monkeypatch.setattr(cogs.umtali.stops, "reopened", gated)
    return gate


async def test_a_withdrawal_still_being_edited_is_not_tried_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    there = await _owed(world)
    edits = ExpiryEdits(world.bot)
    gate = _held(monkeypatch)
    await _ticks(world, edits, 60)
    assert _row(db_path, there.id) == (1, 1)
    await _ticks(world, edits, 70)  # (its next try due meanwhile)
    assert _row(db_path, there.id) == (1, 1), "a try counted, never made"
    gate.set()
    await edits.idle()
    assert _patches(world, there) == 2  # (the stop's, the tick's)


async def test_a_full_backlog_counts_no_try(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    there = await _owed(world)
    await _ticks(world, ExpiryEdits(world.bot, backlog=0), 2 * 3600, every=30)
    assert _row(db_path, there.id) == (1, 0), "given up with no edit tried"
    assert _warned(caplog, there) == [] and _patches(world, there) == 1


async def test_a_last_try_cancelled_by_a_restart_gets_one_more(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    there = await _owed(world)
    with sqlite3.connect(db_path) as c:  # (six tries failed already)
        c.execute("UPDATE challenges SET said_tries = ? WHERE id = ?",
                  (WITHDRAWN_TRIES - 1, there.id))
    gate = _held(monkeypatch)
    edits = ExpiryEdits(world.bot)
    await _ticks(world, edits, 60)
    assert _row(db_path, there.id) == (1, WITHDRAWN_TRIES)
    await edits.close()  # (the bot stops: its edit cancelled, never made)
    assert _row(db_path, there.id)[0] == 1, "the last try given up, its edit never made"
    assert _warned(caplog, there) == [] and _patches(world, there) == 1
    gate.set()
    edits = ExpiryEdits(world.bot)  # (started again)
    await _ticks(world, edits, 70 * 60, every=30)
    await edits.idle()
    assert _row(db_path, there.id) == (2, WITHDRAWN_TRIES + 1)
    assert _patches(world, there) == 2 and custom_ids(there.message) == there.buttons
    [warned] = _warned(caplog, there)
    warned.expected = True  # (the conftest's mark)
