"""A restart's own match whose bring-in fails at the start is let go and claimed again at
the next tick, with the downtime its notes said before the start rewrote them. SimCord,
virtual time, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import GRACE
from cogs.umtali.live import LiveMatch
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from data.leases import Leases
from data.store import Store
from tests.discord_helpers import World, start_match
from tests.processes.helpers import (
    checked,
    drawn_through,
    kill,
    killed_after,
    left_after_check,
    main_of,
    process,
    row,
    settle,
    swept,
)
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def killed_then_busy_once(world: World, monkeypatch: pytest.MonkeyPatch,
                                left: float | None = None, **match: Any
                                ) -> tuple[LiveMatch, MatchService, float]:
    """A match (``start_match``'s keywords, a "normal" time control if none) whose process,
    noted alive (with ``left`` seconds left to its turn, if given), is killed for 120 s, the
    database then failing the next read of it (a restart's bring-in): the match, that process,
    and the time its turn had left."""
    live, main = await checked(world, **(match or {"time_control": "normal"}))
    if left is not None:
        assert live.deadline is not None
        world.clock.now = live.deadline - left
    await heartbeat(main)
    assert live.deadline is not None
    left = live.deadline - world.clock.now
    await kill(main)
    world.clock.advance(120)
    real = Store.match
    fails = [1]

    async def once_busy(self: Store, match_id: int) -> Any:
        if match_id == live.id and fails[0]:
            fails[0] -= 1
            raise OSError("the database is unreachable")
        return await real(self, match_id)

    monkeypatch.setattr(Store, "match", once_busy)
    return live, main, left


async def left_after_restart(world: World, store_target: Any, live: LiveMatch,
                             main: MatchService, first: str) -> float:
    """``main`` restarted (its bring-in of ``live`` failing), then ``first`` (the tick's claim,
    or a draw here before it): the time the turn has left once the match is held again."""
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        if first == "a draw here":
            copy = await again.lookup(live.id)
            assert copy is not None
            seat = copy.session.to_act
            move = GreedyPlayer().choose(copy.session.view(seat))
            assert move.kind is not MoveKind.DISCARD, move
            assert (await again.act(copy, copy.player_ids[seat], move)).ok
        world.clock.advance(1)
        await again.check_timers()
        assert live.id in again.matches
        got = again.matches[live.id].deadline
        assert got is not None
        return got - world.clock.now


@pytest.mark.parametrize("first", ["the tick", "a draw here"])
async def test_a_match_let_go_at_a_restart_is_claimed_again_with_its_downtime(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    """A restart under the same name whose first bring-in of a match fails (the database out
    of reach for that read) lets it go, and claims it again at the next tick: by then its own
    notes say alive as of the start; the downtime before it is the one its notes said before
    the start rewrote them (``matches.stood_since``; review79: lost). So too if a player acts on
    it here before that tick, taking it (review89: lost, the copy read as this process's own
    match, its clocks running)."""
    live, main, left = await killed_then_busy_once(world, monkeypatch)
    got = await left_after_restart(world, store_target, live, main, first)
    assert got == pytest.approx(left, abs=3), \
        "the downtime before the restart was taken from the turn"


async def test_a_match_let_go_at_a_restart_then_held_elsewhere_keeps_no_downtime_saved(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The downtime a restart's claim saves on its own match let go at the start
    (``Leases.claim``), the match then brought in by another process, is cleared by that
    process's renewal: a later claim (that one killed) gives the turn its own downtime, not
    this one's again."""
    live, main, _ = await killed_then_busy_once(world, monkeypatch)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        assert (await row(world, live.id))["stood_since"] is not None, "no downtime saved"
        async with process(world, store_target, "p2") as p2:
            await p2.check_timers()
            assert live.id in p2.matches, "the match let go was not taken by p2"
            world.clock.advance(RENEW_EVERY + 1)
            await p2.check_timers()
            await swept(p2)
            assert (await row(world, live.id))["stood_since"] is None, \
                "the downtime saved is kept on a match held and renewed elsewhere"


async def test_a_match_let_go_at_a_restart_and_held_a_moment_elsewhere_keeps_its_downtime(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart's own match let go at the start, claimed by another process whose bring-in
    fails too (it lets the match go, its previous holder and lapsed lease as they were): this
    process, whose tick saw it held elsewhere that moment, claims it again with the downtime
    before the restart still, as nobody held it for real since (review85: freed at that tick,
    the downtime taken from the turn)."""
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    await main.check_timers()
    await settle(world, main)
    await heartbeat(main)
    deadline = live.deadline
    assert deadline is not None
    left = deadline - world.clock.now
    await kill(main)
    world.clock.advance(120)
    real = Store.match
    fails = [1]
    here: list[Store] = []
    p2_failing = [False]
    gate = asyncio.Event()

    async def busy(self: Store, match_id: int) -> Any:
        if match_id == live.id and fails[0]:
            fails[0] -= 1
            raise OSError("the database is unreachable")
        if match_id == live.id and p2_failing[0] and self not in here:
            await gate.wait()  # p2 is bringing it in, until the test says
            raise OSError("the database is unreachable (p2)")
        return await real(self, match_id)

    monkeypatch.setattr(Store, "match", busy)
    async with process(world, store_target, main.owners.name) as again:
        here.append(again.store)
        assert live.id not in again.matches
        p2_failing[0] = True
        up = asyncio.Event()
        done = asyncio.Event()

        async def run_p2() -> None:
            async with process(world, store_target, "p2"):
                up.set()
                await done.wait()

        task = asyncio.create_task(run_p2())
        try:
            for _ in range(500):
                if await again.owners.leases.holder(live.id) == "p2":
                    break
                await asyncio.sleep(0.01)
            assert await again.owners.leases.holder(live.id) == "p2"
            # This process's tick while p2 holds it, still bringing it in.
            await again.check_timers()
            gate.set()
            await up.wait()
            p2_failing[0] = False
            # p2's bring-in failed: let go, its previous holder and lapsed lease back.
            assert await again.owners.leases.holder(live.id) == again.owners.name
            world.clock.advance(1)
            await again.check_timers()
        finally:
            gate.set()
            done.set()
            await task
        assert live.id in again.matches
        got = again.matches[live.id].deadline
        assert got is not None
        assert got - world.clock.now == pytest.approx(left, abs=3), \
            "the downtime before the restart was taken from the turn"


async def test_a_match_let_go_at_a_restart_then_ended_here_keeps_no_downtime(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart's own match let go at the start, then taken by an action here (a player
    resigns through this process) before its next tick: the downtime saved with it is cleared
    as it is taken (the action's judgement had it)."""
    live, main, _ = await killed_then_busy_once(world, monkeypatch)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        copy = await again.lookup(live.id)
        assert copy is not None
        await again.resign(copy, 1)
        await settle(world, again)
        assert copy.over and live.id not in again.matches
        assert (await row(world, live.id))["stood_since"] is None, \
            "the downtime saved is kept on a match taken here"


@pytest.mark.parametrize("first", ["the tick", "a draw here"])
async def test_a_let_go_match_with_little_time_left_gets_the_grace_either_way(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    """With little time left at the stop, the turn gets at least the minute of grace a resume
    gives, whether the next tick claims it or a player acts on it here first (review93: only
    what it had left, the move refused)."""
    live, main, _ = await killed_then_busy_once(world, monkeypatch, left=10, turn_timer=5)
    got = await left_after_restart(world, store_target, live, main, first)
    assert got == pytest.approx(GRACE, abs=3), f"{got:.0f} s left after the restart ({first})"


@pytest.mark.parametrize("how", ["stopped", "killed"])
async def test_a_match_let_go_at_a_restart_keeps_its_downtime_through_another_restart(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """A restart whose bring-in of its own match fails, stopped (or killed) again before its
    next tick claims it: the restart after gives the turn the downtime before the first
    (review89: it lived in the first restart's memory alone, and that restart's notes said
    it was alive since: lost)."""
    live, main, left = await killed_then_busy_once(world, monkeypatch)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        if how == "killed":
            await kill(again)
    world.clock.advance(30)
    async with process(world, store_target, main.owners.name) as third:
        assert live.id in third.matches
        got = await left_after_check(world, third, live.id)
        assert got == pytest.approx(left, abs=3), \
            "the downtime before the first restart was taken from the turn"


async def test_a_match_let_go_at_a_restart_keeps_its_downtime_when_another_claim_fails(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart's own match let go at the start, claimed by another process whose bring-in
    fails and whose undoing of the claim fails too (its lease lapses under that process's
    name): the next claim gives the turn the downtime before the restart (review89: read
    from that process's notes, alive all along: lost)."""
    live, main, left = await killed_then_busy_once(world, monkeypatch)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        fails = [1]
        real_match, real_unclaim = Store.match, Leases.unclaim

        async def busy(self: Store, match_id: int) -> Any:
            if match_id == live.id and fails[0]:
                fails[0] -= 1
                raise OSError("the database is unreachable (p2)")
            return await real_match(self, match_id)

        async def unclaim(self: Leases, *args: Any) -> None:
            if self.owner == "p2":
                raise OSError("the database is unreachable (p2's undoing)")
            await real_unclaim(self, *args)

        monkeypatch.setattr(Store, "match", busy)
        monkeypatch.setattr(Leases, "unclaim", unclaim)
        async with process(world, store_target, "p2") as p2:
            assert live.id not in p2.matches
            assert await again.owners.leases.holder(live.id) == "p2"
        # p2 stopped: its leases given up, the match claimable at once.
        got = await left_after_check(world, again, live.id)
        assert got == pytest.approx(left, abs=3), \
            "the downtime before the restart was taken from the turn"


async def test_a_match_let_go_at_a_restart_is_judged_elsewhere_with_its_downtime(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart's own match let go at the start (another process's claim of it failing too),
    acted on through that other process before anyone holds it: the move is judged with the
    downtime before the restart, and played (review89's kind: judged by the restart's notes,
    its clocks running since it started, the turn out of time and the move refused)."""
    live, main, left = await killed_then_busy_once(world, monkeypatch, left=60)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        fails = [1]
        real_match = Store.match

        async def busy(self: Store, match_id: int) -> Any:
            if match_id == live.id and fails[0]:
                fails[0] -= 1
                raise OSError("the database is unreachable (p2)")
            return await real_match(self, match_id)

        monkeypatch.setattr(Store, "match", busy)
        async with process(world, store_target, "p2") as p2:
            assert live.id not in p2.matches
            assert await p2.owners.leases.holder(live.id) == main.owners.name
            await drawn_through(p2, live.id)
            got = await left_after_check(world, p2, live.id)
            assert got == pytest.approx(left, abs=3), \
                "the downtime before the restart was taken from the turn"


async def test_a_draw_saved_as_the_claim_resumes_the_match_keeps_its_time(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart's own match let go at its start, a player drawing through this process just
    as the next tick's claim brings it in (that claim read the match before the draw was
    saved, its resume finding it moved on): the copy the draw saved, owed the downtime, is
    the one held, not the claim's stale one (review94: adopted over it, the time owed paid
    through it and lost on its version, the player forfeited)."""
    live, main, _ = await killed_then_busy_once(world, monkeypatch, left=10, turn_timer=5)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        copy = await again.lookup(live.id)
        assert copy is not None
        real = Store.resume_turn
        drew: list[bool] = []

        async def draw_first(self: Store, match_id: int, *a: Any, **k: Any) -> Any:
            if match_id == live.id and not drew:
                drew.append(True)
                seat = copy.session.to_act
                move = GreedyPlayer().choose(copy.session.view(seat))
                assert move.kind is not MoveKind.DISCARD, move
                assert (await again.act(copy, copy.player_ids[seat], move)).ok
            return await real(self, match_id, *a, **k)

        monkeypatch.setattr(Store, "resume_turn", draw_first)
        world.clock.advance(1)
        await again.check_timers()
        assert drew, "the claim did not resume the match"
        assert again.matches[live.id] is copy, "the claim's stale copy is held"
        world.clock.advance(1)
        await again.check_timers()
        saved = await again.store.match(live.id)
        assert saved is not None and saved.status == "active", \
            f"forfeited as the claim met the draw: {saved}"
        assert copy.deadline is not None
        assert copy.deadline - world.clock.now == pytest.approx(GRACE - 2, abs=3)


async def test_a_takeover_whose_bring_in_and_undoing_fail_keeps_the_downtime(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process's tick claims a killed process's match, the database failing its
    bring-in and its undoing of the claim (the lease lapses under its name): its next claim
    gives the turn the downtime since the kill, saved with the first claim (review89, review97:
    read from its own notes, alive all along, and lost)."""
    live, main = await checked(world, time_control="normal")
    async with process(world, store_target, "p2") as p2:
        left = await killed_after(world, main, live, 120)
        fails = {"read": 1, "undo": 1}
        real_match, real_unclaim = Store.match, Leases.unclaim

        async def busy(self: Store, match_id: int) -> Any:
            if match_id == live.id and fails["read"]:
                fails["read"] -= 1
                raise OSError("the database is unreachable")
            return await real_match(self, match_id)

        async def unclaim(self: Leases, *args: Any) -> None:
            if fails["undo"]:
                fails["undo"] -= 1
                raise OSError("the database is unreachable (the undoing)")
            await real_unclaim(self, *args)

        monkeypatch.setattr(Store, "match", busy)
        monkeypatch.setattr(Leases, "unclaim", unclaim)
        await p2.check_timers()
        assert fails == {"read": 0, "undo": 0} and live.id not in p2.matches
        world.clock.advance(LEASE + 1)
        await p2.check_timers()
        assert live.id in p2.matches
        got = p2.matches[live.id].deadline
        assert got is not None
        assert got - world.clock.now == pytest.approx(left, abs=3), \
            "the downtime since the kill was taken from the turn"
