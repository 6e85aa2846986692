"""A claim's bring-in (``Claims._bring_in``, ``_brought_in``) racing what else brings the same
match in, or failing after its resume was saved: the turn is given its downtime once, the outage
told once, and memory holds the copy the database has (review102). SimCord, virtual time, SQLite
and PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from cogs.umtali import claims
from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import GRACE
from cogs.umtali.in_dms import owe_at_bring_in
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from data.leases import Claimed
from tests.discord_helpers import World
from tests.processes.helpers import (
    checked,
    drawn_through,
    kill,
    killed_after,
    left_after_check,
    process,
    row,
    said,
    settle,
)
from tests.processes.test_unheard_resumes import OFFLINE, RESUME, killed
from tests.unheard import lose_answer


def told(world: World, live: LiveMatch) -> int:
    """How often the channel was told of an outage."""
    return sum(m.content.count(OFFLINE) for m in said(world, live, OFFLINE))


async def test_an_unsettled_match_claimed_again_as_an_action_brings_it_in_is_resumed_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A takeover's resume of unknown outcome (saved, unread) keeps the match claimed, to be
    brought in at the next check; the renewals failing meanwhile, its lease lapses and the
    tick's claim takes it again as a player's action brings it in. Both resumed it: the turn
    given the downtime twice in the database, the copy held judging it by the deadline before."""
    live, left, taken_at = await killed(world, other)
    lost = lose_answer(monkeypatch, other.store.db, RESUME, reads_fail=1)
    await other.check_timers()
    owners = other.owners
    assert lost.answers == lost.reads == 1 and live.id in owners.claims.unsettled
    renew = owners.leases.renew

    async def unreachable(*args: Any, **kwargs: Any) -> set[int]:
        raise OSError("the database is unreachable")

    monkeypatch.setattr(owners.leases, "renew", unreachable)
    world.clock.advance(LEASE + 1)
    await other.check_timers()  # the renewal due fails: the lease lapses
    monkeypatch.setattr(owners.leases, "renew", renew)
    assert (await row(world, live.id))["lease_until"] < world.clock.now
    # At the next check, bringing it in again fails (its holder unread); the claim takes it.
    holder, unread = owners.leases.holder, [OSError("the database is unreachable")]

    async def holder_once(match_id: int) -> str | None:
        if unread:
            raise unread.pop()
        return await holder(match_id)

    asked = asyncio.Event()
    bring_in = owners.claims.bring_in_unsettled

    async def bringing_in(match_id: int) -> None:
        asked.set()
        await bring_in(match_id)

    read = other.store.match
    acting: list[asyncio.Task[LiveMatch | None]] = []

    async def read_as_a_player_acts(match_id: int) -> Any:
        if match_id == live.id and not acting:
            # The claim's read of the row: a player acts meanwhile (the action's lookup brings
            # the match in first). Unless the claim holds the bring-in, the action's is over
            # before the claim reads on.
            holding = owners.claims._bringing.locked()
            asked.clear()
            acting.append(asyncio.create_task(other.lookup(match_id)))
            await asked.wait()
            if not holding:
                await acting[0]
        return await read(match_id)

    monkeypatch.setattr(owners.leases, "holder", holder_once)
    monkeypatch.setattr(owners.claims, "bring_in_unsettled", bringing_in)
    monkeypatch.setattr(other.store, "match", read_as_a_player_acts)
    # (within a second of the renewal that failed: not tried again yet, fix160)
    world.clock.advance(0.5)
    await other.check_timers()
    assert not unread and acting, "the claim did not take the match again"
    theirs = await acting[0]
    assert theirs is not None
    await settle(world, other)
    saved = await row(world, live.id)
    assert other.matches.get(live.id) is theirs
    assert saved["deadline"] == pytest.approx(taken_at + max(left, GRACE), abs=2.5), \
        "the turn was given its downtime twice"
    assert theirs.deadline == saved["deadline"], "memory judges the turn by another deadline"
    assert told(world, live) == 1


async def test_a_failure_after_a_takeover_resume_gives_the_downtime_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Something after the resume was saved fails (here the panels owed, once): the match was
    let go, and the next claim gave its turn the downtime again from the dead holder's notes,
    with a second offline notice (a failure every time: the turn never timed out)."""
    caplog.set_level(logging.WARNING)
    live, left, _ = await killed(world, other)
    failed: list[int] = []

    def failing(copy: LiveMatch) -> set[int]:
        if not failed:
            failed.append(copy.id)
            raise RuntimeError("the panels owed could not be worked out")
        return owe_at_bring_in(copy)

    monkeypatch.setattr(claims, "owe_at_bring_in", failing)
    await other.check_timers()
    await settle(world, other)
    assert failed == [live.id]
    got = await left_after_check(world, other, live.id)
    await settle(world, other)
    assert got == pytest.approx(left, abs=3), "the downtime was given twice"
    assert told(world, live) == 1
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and other.matches[live.id].deadline == saved["deadline"]
    warned = [r.getMessage() for r in caplog.records if f"match {live.id}" in r.getMessage()]
    assert len(warned) == 1 and "panels owed" in warned[0], warned


async def test_a_match_taken_by_an_action_as_its_claim_commits_is_not_resumed_again(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's draw through the claiming process lands between the claim's COMMIT and the
    bring-in of its batch: the draw's copy, owed the downtime, is held, not replaced by the
    claim's nor resumed again (review99's gap: memory read after the claim returned)."""
    live, main = await checked(world, time_control="normal")
    async with process(world, store_target, "p2") as p2:
        left = await killed_after(world, main, live, 60)
        claim = p2.owners.leases.claim
        drawn: list[LiveMatch] = []

        async def claimed_then_drawn(*args: Any, **kwargs: Any) -> list[Claimed]:
            batch = await claim(*args, **kwargs)
            if any(c.match_id == live.id for c in batch) and not drawn:
                drawn.append(await drawn_through(p2, live.id))
            return batch

        monkeypatch.setattr(p2.owners.leases, "claim", claimed_then_drawn)
        await p2.check_timers()
        assert drawn and p2.matches.get(live.id) is drawn[0], \
            "the draw's copy was replaced by the claim's"
        got = await left_after_check(world, p2, live.id)
        assert got == pytest.approx(left, abs=3), "the downtime was given twice, or not at all"


async def test_a_match_moved_on_elsewhere_as_its_claim_read_it_is_not_held(
        world: World, other: MatchService, third: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As the claiming process reads the row, a player draws through a third process, which
    takes the match: the claim's resume finds it moved on, and its stale copy was held all the
    same (timers judged by a deadline gone) while the third process held the match."""
    live, main = await checked(world, time_control="normal")
    await heartbeat(main)
    await kill(main)
    world.clock.advance(60)
    read = other.store.match
    drawn: list[LiveMatch] = []

    async def read_as_drawn_elsewhere(match_id: int) -> Any:
        found = await read(match_id)
        if match_id == live.id and not drawn:
            drawn.append(await drawn_through(third, live.id))
        return found

    monkeypatch.setattr(other.store, "match", read_as_drawn_elsewhere)
    # The tick's claim, looked at as it returns (what the tick does next, a delivery of the
    # stale copy finding it overtaken, may drop it: not the claim's doing).
    lives = await other.owners.claim()
    assert drawn and (await row(world, live.id))["owner"] == "p3"
    assert live.id not in other.matches and not lives, \
        "a stale copy is held where the match is not"
    await other.check_timers()
    assert live.id not in other.matches
