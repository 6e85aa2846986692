"""Time given back beside a pause of the bot's, or beside another payment (review83): paid only
under a note that does not hold it too (``give_back.pay_noted``).

- A pause being given back, its leases renewed first (``standing``): an outage heard to end
  meanwhile (a blip, heard as the loop renews) paid the pause at once, the note still saying the
  clocks stood still since the pause began: a move through another process, or a restart, gave
  the pause again.
- A pause seen by the watch and not judged yet (``stood``): an outage ending first was paid
  under that note, which covers the outage too: given twice at a take.
- An outage ending while a check's payment of time owed was being saved noted the sum owed on
  the deadline before that payment: once it was saved, a take found the entry on a deadline no
  longer the turn's, and the outage was lost.

SimCord, virtual time, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.alive import noted
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.service import MatchService
from cogs.umtali.standing_still import judge_stood, stood_still
from tests.discord_helpers import World
from tests.processes.helpers import checked, row, settle
from tests.processes.test_given_back_notes_fail import OUTAGE as FIRST
from tests.processes.test_given_back_notes_fail import _draw_elsewhere, in_an_outage, notes_down

PAUSE = 300.0
OUTAGE = 60.0


async def test_a_blip_heard_while_a_pause_is_given_pays_it_under_a_still_note(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main = await checked(world, time_control="normal")
    deadline = live.deadline
    assert deadline is not None
    since = world.clock.now
    world.clock.advance(PAUSE)
    renew = main.owners.tick

    async def tick(now: float) -> bool:
        monkeypatch.setattr(main.owners, "tick", renew)
        renewed = await renew(now)
        # The gateway's drop and its return heard as the loop renews (a resume: a blip).
        gateway_lost(main, None)
        await noted(main, "as the gateway dropped")
        await gateway_back(main, None)
        # A draw through another process now (or a crash, and a restart).
        await _draw_elsewhere(world, other, live.id)
        return renewed

    monkeypatch.setattr(main.owners, "tick", tick)
    await stood_still(main, since, world.clock.now)
    await settle(world, main, other)
    world.clock.advance(1)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + PAUSE, abs=2), \
        "the pause was given twice, or lost"


async def test_an_outage_paid_before_a_pause_seen_is_judged_is_given_once(
        world: World, other: MatchService) -> None:
    live, main = await checked(world, time_control="normal")
    deadline = live.deadline
    assert deadline is not None
    since = world.clock.now
    world.clock.advance(PAUSE)
    main.clock_state.stood.append((since, world.clock.now))  # the watch saw it
    gateway_lost(main, None)
    await noted(main, "as the gateway dropped")
    world.clock.advance(OUTAGE)
    await gateway_back(main, None)
    # A draw through another process now (or a crash, and a restart).
    await _draw_elsewhere(world, other, live.id)
    await settle(world, main, other)
    async with main.clock_state.judging:
        await judge_stood(main)
    world.clock.advance(1)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["deadline"] == pytest.approx(
        deadline + PAUSE + OUTAGE, abs=2), "the outage was given twice, or lost"


async def test_an_outage_ending_as_time_owed_is_saved_is_noted_on_the_deadline_paid(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    main, live, deadline = await in_an_outage(world)  # FIRST long
    set_metas = main.store.set_metas
    notes_down(monkeypatch, main)
    await gateway_back(main, None)  # owed, unpaid
    monkeypatch.setattr(main.store, "set_metas", set_metas)
    set_deadline = main.store.set_deadline
    back: list[asyncio.Task[None]] = []
    notes: list[dict[str, str]] = []

    async def noting(values: dict[str, str]) -> None:
        await set_metas(values)
        notes.append(values)

    async def slow(*args: object, **kwargs: object) -> bool:
        monkeypatch.setattr(main.store, "set_deadline", set_deadline)
        saved = await set_deadline(*args, **kwargs)  # type: ignore[arg-type]
        gateway_lost(main, None)
        await noted(main, "as the gateway dropped")
        world.clock.advance(OUTAGE)
        monkeypatch.setattr(main.store, "set_metas", noting)
        back.append(asyncio.create_task(gateway_back(main, None)))
        # The outage's end under way beside this payment: its note saved (before), or
        # waiting for this payment (a second of real time at most).
        for _ in range(100):
            if notes:
                break
            await asyncio.sleep(0.01)
        await _draw_elsewhere(world, other, live.id)
        return saved

    monkeypatch.setattr(main.store, "set_deadline", slow)
    world.clock.advance(1)
    await main.check_timers()
    await asyncio.gather(*back)
    await settle(world, main, other)
    world.clock.advance(1)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert (await row(world, live.id))["deadline"] == pytest.approx(
        deadline + FIRST + OUTAGE, abs=3), "the second outage was given twice, or lost"
