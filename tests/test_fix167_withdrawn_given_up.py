"""fix167 (review160): a withdrawal owed to its message is no longer tried at every tick of
every process for as long as Discord fails: its tries are spaced out, doubling, and given up
after about an hour with one WARNING (its buttons stay; a click is answered "no longer open");
those failing for a while no longer starve the newer. A challenge whose message's id was
never saved (only the posting process knows it) stays owed until it expires, for that
process's tick to say it, and a click on its buttons says it on the clicked message. Two
servers in one SimCord, on a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

import cogs.umtali.challenge_expiry
from cogs.umtali.access import service
from cogs.umtali.challenge_expiry import ExpiryEdits, expire_challenges
from tests.discord_helpers import World, challenge, custom_ids, flush
from tests.test_fix161_stop_withdraws import Elsewhere, _declined_here
from tests.test_fix162_stop_challenges import _decline, _stop
from tests.test_fix165_withdrawn_said_later import WITHDRAWN, _unsaid


def _patches(world: World, there: Elsewhere) -> int:
    path = f"/channels/{there.channel.id}/messages/{there.posted.response.id}"
    return sum(1 for r in world.env.http_requests
               if r.method == "PATCH" and r.path == path)


def _fail(world: World, there: Elsewhere, times: int | None) -> None:
    path = f"/channels/{there.channel.id}/messages/{there.posted.response.id}"
    world.env.inject_error("PATCH", path, status=503, code=0, message="Unavailable",
                           times=times)


async def _ticks(world: World, seconds: int, every: int = 10) -> None:
    for _ in range(seconds // every):
        world.clock.advance(every)
        await expire_challenges(world.bot)
        await flush(world)


async def test_a_withdrawal_failing_for_good_is_tried_further_apart_then_given_up(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    there = await Elsewhere(world).challenged(world)
    _fail(world, there, None)
    await _stop(world, await _declined_here(world), world.carol)
    await flush(world)
    assert _patches(world, there) == 1 and _unsaid(db_path, there.id) == 1
    await _ticks(world, 2 * 3600)
    # The stop's own try, then seven a minute, 2, 4 … apart: not one every ten seconds.
    assert _patches(world, there) == 8, _patches(world, there)
    assert custom_ids(there.message) == there.buttons  # left as it is
    warned = [r for r in caplog.records if r.levelno == logging.WARNING
              and f"challenge {there.id} withdrawn" in r.getMessage()]
    assert len(warned) == 1, [r.getMessage() for r in warned]
    warned[0].expected = True  # (the conftest's mark)
    # A click on its buttons is answered, and tries once more: said then.
    button = next(c for c in there.buttons if c.endswith(":decline"))
    clicked = await there.cy.click(there.posted.response, custom_id=button)
    await flush(world)
    assert clicked.acknowledged and _patches(world, there) == 9
    world.env.backend.faults.clear()
    clicked = await there.cy.click(there.posted.response, custom_id=button)
    await flush(world)
    assert clicked.acknowledged and custom_ids(there.message) == []
    assert WITHDRAWN in str(there.message.embeds[0].description)
    assert _unsaid(db_path, there.id) == 0


async def test_the_withdrawals_failing_for_good_do_not_starve_the_newer(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cogs.umtali.challenge_expiry, "WITHDRAWN_AT_ONCE", 1)
    older = await Elsewhere(world).challenged(world)
    _fail(world, older, None)
    await _stop(world, await _declined_here(world), world.carol)
    await flush(world)
    world.clock.advance(30)
    # bob's challenge to cy on a third server, withdrawn by cy's stop of bob, its edit
    # failing once.
    newer = await _bob_challenges(world, Elsewhere(world))
    _fail(world, newer, 1)
    posted = await challenge(world, world.bob, world.carol)
    await _stop(world, await _decline(world, posted, world.carol), world.carol)
    await flush(world)
    assert custom_ids(newer.message) == newer.buttons and _unsaid(db_path, newer.id) == 1
    await _ticks(world, 30 * 60)
    assert custom_ids(newer.message) == [], "the newer withdrawal was starved"
    assert WITHDRAWN in str(newer.message.embeds[0].description)
    assert _unsaid(db_path, newer.id) == 0 and _unsaid(db_path, older.id) == 1


async def _bob_challenges(world: World, there: Elsewhere) -> Elsewhere:
    bob = there.guild.add_member(world.bob.user)
    world.clock.advance(60)
    there.posted = await bob.slash(there.channel, "umtali challenge", opponent=there.cy)
    assert there.posted.acknowledged and not there.posted.ephemeral
    there.buttons = custom_ids(there.posted.response)
    there.id = int(next(c for c in there.buttons if c.endswith(":accept")).split(":")[2])
    return there


def _forget_message(db_path: Path, world: World, there: Elsewhere) -> None:
    """As if its post's save had failed in another process: no id in the database, none in
    this process's memory."""
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE challenges SET message_id = NULL WHERE id = ?", (there.id,))
    service(world.bot).unsaved_posts.pop(there.id, None)


async def _withdrawn_unknown(world: World, db_path: Path) -> Elsewhere:
    """A challenge on the other server whose message id the database never got, withdrawn by
    the stop of its challenged member."""
    there = await Elsewhere(world).challenged(world)
    _forget_message(db_path, world, there)
    await _stop(world, await _declined_here(world), world.carol)
    await flush(world)
    return there


async def test_a_withdrawal_whose_message_only_its_poster_knows_stays_owed(
        world: World, db_path: Path) -> None:
    there = await _withdrawn_unknown(world, db_path)
    assert _unsaid(db_path, there.id) == 1
    # The posting process's tick, which knows its message.
    service(world.bot).unsaved_posts[there.id] = there.posted.response.id
    await _ticks(world, 120)
    assert custom_ids(there.message) == [], "the withdrawal was given up unsaid"
    assert WITHDRAWN in str(there.message.embeds[0].description)
    assert _unsaid(db_path, there.id) == 0


async def test_a_click_says_a_withdrawal_whose_message_id_was_never_saved(
        world: World, db_path: Path) -> None:
    there = await _withdrawn_unknown(world, db_path)
    button = next(c for c in there.buttons if c.endswith(":decline"))
    clicked = await there.cy.click(there.posted.response, custom_id=button)
    await flush(world)
    assert clicked.acknowledged
    assert custom_ids(there.message) == [], "a click left the withdrawn challenge's buttons"
    assert WITHDRAWN in str(there.message.embeds[0].description)
    assert _unsaid(db_path, there.id) == 0


async def test_unknown_messages_are_given_up_once_expired(
        world: World, db_path: Path) -> None:
    there = await _withdrawn_unknown(world, db_path)
    await _ticks(world, 120)
    assert _unsaid(db_path, there.id) == 1  # (another process may know it)
    await _ticks(world, 600)
    assert _unsaid(db_path, there.id) == 0
    assert custom_ids(there.message) == there.buttons



async def test_a_withdrawal_past_the_backlog_is_said_at_a_later_tick(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The backlog full, an owed withdrawal is not "left as it is": a later tick says it
    (fix175: not even claimed meanwhile, no try counted)."""
    caplog.set_level(logging.INFO)
    there = await Elsewhere(world).challenged(world)
    _fail(world, there, 1)
    await _stop(world, await _declined_here(world), world.carol)
    await flush(world)
    edits = ExpiryEdits(world.bot, backlog=0)
    world.clock.advance(60)
    await expire_challenges(world.bot, edits=edits)
    logged = [r.getMessage() for r in caplog.records if f"challenge {there.id} " in
              r.getMessage() and "left as it is" in r.getMessage()]
    assert logged == [] and _unsaid(db_path, there.id) == 1
    await _ticks(world, 60)
    assert custom_ids(there.message) == [] and _unsaid(db_path, there.id) == 0
