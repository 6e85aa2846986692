"""fix170 (review160): a withdrawal owed to a challenge's message is tried by one process per
due time (the tick claims it, moving its next try on, in the statement that finds it: two
processes' ticks both edited it); and a challenge whose message's id only its posting process
knows (its save failed), closed by another process, is said on it by the poster's own tick
(an expiry elsewhere left its buttons for good). Two processes, one database, each backend."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import cogs.umtali.stops
from cogs.umtali.archived import reopened
from cogs.umtali.challenge_expiry import expire_challenges
from cogs.umtali.service import MatchService
from data.models import Challenge
from tests.discord_helpers import World, custom_ids
from tests.processes.helpers import main_of, settle, via
from tests.test_fix161_stop_withdraws import Elsewhere, _declined_here
from tests.test_fix162_stop_challenges import _stop

EXPIRED = "никто не ответил"  # (the Russian server's "nobody answered in time")
WITHDRAWN = "**Этот вызов отозван.**"


def _patches(world: World, there: Elsewhere) -> int:
    path = f"/channels/{there.channel.id}/messages/{there.posted.response.id}"
    return sum(1 for r in world.env.http_requests if r.method == "PATCH" and r.path == path)


async def _until(done: Callable[[], bool]) -> None:
    for _ in range(500):
        if done():
            return
        await asyncio.sleep(0.01)


async def test_two_processes_ticks_edit_an_owed_withdrawal_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    main = main_of(world)
    there = await Elsewhere(world).challenged(world)
    path = f"/channels/{there.channel.id}/messages/{there.posted.response.id}"
    world.env.inject_error("PATCH", path, status=503, code=0, message="Unavailable", times=1)
    await _stop(world, await _declined_here(world), world.carol)
    await settle(world, main)
    assert _patches(world, there) == 1 and custom_ids(there.message) == there.buttons
    world.clock.advance(61)
    # Each process's edit waits until both ticks have found what they owe.
    gate, entered = asyncio.Event(), []

    async def gated(client: Any, channel_id: int, edit: Callable[[], Awaitable[None]]) -> None:
        entered.append(channel_id)
        await gate.wait()
        await reopened(client, channel_id, edit)

    monkeypatch.setattr(cogs.umtali.stops, "reopened", gated)
    ticking = [asyncio.create_task(expire_challenges(world.bot))]
    await _until(lambda: bool(entered) or ticking[0].done())
    with via(world, other):
        ticking.append(asyncio.create_task(expire_challenges(world.bot)))
        await _until(lambda: len(entered) == 2 or ticking[1].done())
    gate.set()
    await asyncio.gather(*ticking)
    await settle(world, main, other)
    assert custom_ids(there.message) == [] and WITHDRAWN in str(there.message.embeds[0].description)
    assert _patches(world, there) == 2, "both processes' ticks edited the withdrawal"


async def _posted_unsaved(world: World) -> Elsewhere:
    """ada's challenge to cy on the other server, posted through the bot's process, whose
    message's id the database never got: known in that process's memory alone."""
    main = main_of(world)
    there = await Elsewhere(world).challenged(world)
    async with main.store.db.transaction() as c:
        await c.execute("UPDATE challenges SET message_id = NULL WHERE id = ?", (there.id,))
    main.unsaved_posts[there.id] = there.posted.response.id
    return there


async def test_an_expiry_elsewhere_is_said_by_the_process_that_posted_it(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    there = await _posted_unsaved(world)
    world.clock.advance(601)
    with via(world, other):
        await expire_challenges(world.bot)
    await settle(world, main, other)
    closed = await main.store.challenge(there.id)
    assert closed is not None and closed.status == "expired"
    assert custom_ids(there.message) == there.buttons  # (p2 knows no message)
    world.clock.advance(10)
    await expire_challenges(world.bot)
    await settle(world, main, other)
    assert custom_ids(there.message) == [], "the expired challenge's buttons stayed for good"
    assert EXPIRED in str(there.message.embeds[0].description)
    assert there.id not in main.unsaved_posts


async def test_a_withdrawal_elsewhere_is_said_by_the_process_that_posted_it(
        world: World, other: MatchService) -> None:
    """p2's stop withdraws it, p2's tick finding it first (it moves it on: nothing to edit
    there); the poster's tick says it."""
    main = main_of(world)
    there = await _posted_unsaved(world)
    with via(world, other):
        await _stop(world, await _declined_here(world), world.carol)
        await settle(world, other)
        world.clock.advance(61)
        await expire_challenges(world.bot)
        await settle(world, other)
    assert custom_ids(there.message) == there.buttons
    world.clock.advance(10)
    await expire_challenges(world.bot)
    await settle(world, main, other)
    assert custom_ids(there.message) == []
    assert WITHDRAWN in str(there.message.embeds[0].description)
    row = await main.store.challenge(there.id)
    assert row is not None and not row.unsaid


async def test_an_expiry_elsewhere_racing_the_posters_save_is_said(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The poster saves its message's id (finding the challenge open still) between p2's
    reading it due, with no message, and p2's closing it: p2's close reads it back (fix175),
    and says it."""
    main = main_of(world)
    there = await _posted_unsaved(world)
    close = other.store.expire_challenge

    async def saved_first(challenge_id: int, now: float | None = None) -> Challenge | None:
        saved = await main.store.save_message_late(
            challenge_id, main.unsaved_posts.pop(challenge_id), world.clock.now)
        assert saved is not None and saved.status == "open"
        return await close(challenge_id, now)

    monkeypatch.setattr(other.store, "expire_challenge", saved_first)
    world.clock.advance(601)
    with via(world, other):
        await expire_challenges(world.bot)
    await settle(world, main, other)
    assert custom_ids(there.message) == [], "nobody said the expiry"
    assert EXPIRED in str(there.message.embeds[0].description)
