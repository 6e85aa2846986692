"""A step back of the system's clock owed by a running turn (its save failing for that row)
when its process is killed: the process taking the match over takes it off the turn, as it
gives a turn time owed to it (review158: the note of time owed and the claim's downtime took
only time owed to a turn, and the turn gained the step). Two processes, one database."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.standing_still import judged_check
from cogs.umtali.steps import note_step
from tests.discord_helpers import World, start_match
from tests.processes.helpers import kill, main_of, row, settle
from umtali.players import GreedyPlayer

STEP = -600.0


async def step_owed(world: World, monkeypatch: pytest.MonkeyPatch
                    ) -> tuple[MatchService, LiveMatch, float]:
    """A match whose running turn owes a step back of the clock, its save failing: the holding
    process, the match and the turn's deadline as saved."""
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    await main.check_timers()
    assert live.deadline is not None
    deadline = live.deadline
    note_step(main)
    world.clock.step(STEP)

    async def locked(*args: Any, **kwargs: Any) -> bool:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(main.store, "set_deadline", locked)
    await judged_check(main)
    assert main.clock_state.owed.get(live.id) == (deadline, STEP)
    return main, live, deadline


async def test_a_step_back_owed_by_a_killed_process_is_taken_at_the_take_over(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    main, live, deadline = await step_owed(world, monkeypatch)
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline, abs=0.01)
    await heartbeat(main)  # its last sign of life
    last = world.clock.now
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    down = world.clock.now - last
    assert (await row(world, live.id))["deadline"] == pytest.approx(
        deadline + STEP + down, abs=2), "the turn gained the step back owed at the kill"


async def test_a_step_back_owed_by_the_holder_judges_a_move_through_another_process(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder owes the step back (its save failing) when a draw comes through another
    process after the turn's own time, before its deadline as saved: late, as the holder's
    check would judge it (the copy read it as owing nothing: played on time never had)."""
    main, live, deadline = await step_owed(world, monkeypatch)
    await heartbeat(main)
    world.clock.now = deadline + STEP + LATE + 5  # (its own time over; not as saved)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    await settle(world, main, other)
    assert not outcome.ok, "a move played on time the player never had"
    assert (await row(world, live.id))["version"] == live.version
