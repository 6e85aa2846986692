"""A process whose renewals failed past its lease claims its own matches back while it still
plays them in memory: their clocks ran all along, so the claim saves no downtime on them
(``matches.stood_since``) for another process to read. SimCord, virtual time, SQLite and
PostgreSQL (review98)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import claims
from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.live import LiveMatch
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from data.leases import Leases
from data.store import Store
from tests.discord_helpers import World
from tests.processes.helpers import (
    checked,
    drawn_through,
    kill,
    killed_after,
    left_after_check,
    process,
    row,
)


async def copies(world: World, main: MatchService, live: LiveMatch) -> list[int]:
    """Two more matches held by ``main`` (on other servers, the same players and position as
    ``live``, no clock running): their ids."""
    saved = await row(world, live.id)
    return [await main.store.create_match(
        guild_id=saved["guild_id"] + n, channel_id=saved["channel_id"] + n,
        players=((saved["player0_id"], "ada"), (saved["player1_id"], "ben")),
        variant=saved["variant"], turn_timer=saved["turn_timer"], state=saved["state"],
        deadline=None, owner=main.owners.name, lease_until=world.clock.now + LEASE)
        for n in (1, 2)]


async def claimed_back(world: World, monkeypatch: pytest.MonkeyPatch
                       ) -> tuple[LiveMatch, MatchService]:
    """A match whose process's renewal failed (its lease lapsed), then claimed back by that
    process's next tick while held in its memory."""
    live, main = await checked(world, time_control="normal")
    await heartbeat(main)
    real_renew = Leases.renew
    down = [True]

    async def renew(self: Leases, *args: Any, **kwargs: Any) -> Any:
        if down[0] and self.owner == main.owners.name:
            raise OSError("the database is unreachable")
        return await real_renew(self, *args, **kwargs)

    monkeypatch.setattr(Leases, "renew", renew)
    world.clock.advance(LEASE + 1)
    await main.check_timers()  # the renewal due fails: the lease lapses
    down[0] = False
    world.clock.advance(1)
    await main.check_timers()  # no renewal due: the claim takes its own lapsed lease back
    assert main.matches.get(live.id) is live
    assert (await row(world, live.id))["stood_since"] is None, \
        "a downtime saved on a match whose clock runs in memory"
    return live, main


async def test_a_move_through_another_process_is_not_given_the_time_it_ran(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    live, _ = await claimed_back(world, monkeypatch)
    deadline = live.deadline
    assert deadline is not None
    async with process(world, store_target, "p2") as p2:
        await drawn_through(p2, live.id)
        await p2.check_timers()
        got = p2.matches[live.id].deadline
        assert got == pytest.approx(deadline, abs=3), \
            "a turn running in memory was given back time through another process"


async def test_a_takeover_after_a_kill_gives_only_the_time_since(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main = await claimed_back(world, monkeypatch)
    world.clock.advance(2)
    await heartbeat(main)  # alive, its clock running
    assert live.deadline is not None
    left = live.deadline - world.clock.now
    await kill(main)
    world.clock.advance(LEASE + 1)
    async with process(world, store_target, "p2") as p2:
        await p2.check_timers()
        got = p2.matches[live.id].deadline
        assert got is not None
        assert got - world.clock.now == pytest.approx(left, abs=3), \
            "the takeover gave the turn time it ran in memory before the kill"


async def leases_after_slow_restart(world: World, store_target: Any,
                                    monkeypatch: pytest.MonkeyPatch,
                                    each: float) -> dict[int, float]:
    """Three matches of a process killed a minute ago, brought back by its restart, each
    match's load taking ``each`` seconds (a busy database, thousands of matches): the time
    each lease has left once they are all in."""
    live, main = await checked(world, time_control="normal")
    await copies(world, main, live)
    await kill(main)
    world.clock.advance(60)
    real = Store.match

    async def slow(self: Store, match_id: int) -> Any:
        world.clock.advance(each)
        return await real(self, match_id)

    monkeypatch.setattr(Store, "match", slow)
    async with process(world, store_target, main.owners.name) as again:
        assert len(again.matches) == 3
        return {r["id"]: r["lease_until"] - world.clock.now for r in
                await again.store.db.fetchall("SELECT id, lease_until FROM matches")}


async def test_a_start_bringing_back_many_matches_slowly_keeps_their_leases(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart bringing back more matches than a claim takes at once (``CLAIMS``), each
    slow to bring in: every lease still runs once they are all in (review98: each batch leased
    from the start's first moment, nothing renewing those brought in before the timers
    started: lapsed when bringing them in took longer than a lease, for another process to
    take them and give their turns the time again)."""
    monkeypatch.setattr(claims, "CLAIMS", 1)
    leases = await leases_after_slow_restart(world, store_target, monkeypatch, 10)
    assert all(left > 0 for left in leases.values()), \
        f"leases lapsed as the start brought the matches in: {leases}"


async def test_a_batch_slow_to_bring_in_keeps_its_leases(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """One batch of a restart's claim slow to bring in (a few seconds a match): the leases of
    the batch, those brought in and those to come, are renewed on the way, not left to lapse
    before the timers start (review99: renewed only between batches)."""
    leases = await leases_after_slow_restart(world, store_target, monkeypatch, 4)
    assert all(left > LEASE - RENEW_EVERY for left in leases.values()), \
        f"leases near their end as the start brought the matches in: {leases}"


async def test_a_match_taken_by_an_action_once_claimed_is_not_resumed_again(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed process's match claimed by another process, a player drawing in it there
    before its own bring-in began (the claim's batch still being brought in): the copy the
    draw saved, owed the downtime, is held, not replaced by the claim's, nor resumed again
    (review99: memory read match by match)."""
    live, main = await checked(world, time_control="normal")
    async with process(world, store_target, "p2") as p2:
        left = await killed_after(world, main, live, 60)
        real = claims.Claims._brought_in
        drawn: list[LiveMatch] = []

        async def draw_first(self: claims.Claims, c: Any, *args: Any) -> Any:
            if c.match_id == live.id and not drawn:
                drawn.append(await drawn_through(p2, live.id))
            return await real(self, c, *args)

        monkeypatch.setattr(claims.Claims, "_brought_in", draw_first)
        await p2.check_timers()
        assert drawn and p2.matches.get(live.id) is drawn[0], \
            "the draw's copy was replaced by the claim's"
        got = await left_after_check(world, p2, live.id)
        assert got == pytest.approx(left, abs=3), \
            "the downtime was given twice, or not at all"


async def test_a_match_failing_after_its_batch_was_renewed_is_let_go(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A takeover's batch slow to bring in (its leases renewed on the way), the last match's
    load failing: that claim is undone, the match claimable at once as its previous holder
    left it (review100: undone at the lease as first claimed, it found nothing to undo and sat
    claimed and unheld until the renewed lease lapsed)."""
    live, main = await checked(world, time_control="normal")
    ids = [live.id, *await copies(world, main, live)]
    async with process(world, store_target, "p2") as p2:
        await kill(main)
        world.clock.advance(LEASE + 1)
        real = Store.match

        async def slow(self: Store, match_id: int) -> Any:
            world.clock.advance(3)
            if match_id == ids[-1]:
                raise OSError("the database is unreachable")
            return await real(self, match_id)

        monkeypatch.setattr(Store, "match", slow)
        await p2.check_timers()
        assert ids[-1] not in p2.matches and ids[0] in p2.matches
        last = await row(world, ids[-1])
        assert (last["owner"], last["lease_until"] < world.clock.now) == (main.owners.name, True), \
            f"held by {last['owner']} until {last['lease_until'] - world.clock.now:.0f} s from now"
