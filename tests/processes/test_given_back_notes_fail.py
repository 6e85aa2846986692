"""Time given back is noted before it is paid (``give_back.give_back``), and the two notes
(the clocks running again, the time owed) are saved together (``alive.heartbeat``): a note that
fails leaves the time owed, unpaid until it is noted, so whoever reads the holder's notes
meanwhile gives the time once, and a stop loses none of it (review81). SimCord, virtual time,
on SQLite and PostgreSQL."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.alive import heartbeat, noted, owed_key
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 300.0


async def in_an_outage(world: World) -> tuple[MatchService, LiveMatch, float]:
    """A match of the bot's process, its gateway down (noted so) for ``OUTAGE`` seconds: the
    process, the match, and the turn's deadline as the outage began."""
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    gateway_lost(main, None)
    await heartbeat(main)  # "<its start> still"
    world.clock.advance(OUTAGE)
    return main, live, deadline


def notes_down(monkeypatch: pytest.MonkeyPatch, main: MatchService) -> None:
    """Every note of ``main``'s fails (the database, for the notes alone)."""
    async def down(values: dict[str, str]) -> None:
        raise ConnectionError("database down")

    monkeypatch.setattr(main.store, "set_metas", down)


async def _draw_elsewhere(world: World, other: MatchService, match_id: int) -> None:
    """A draw (the turn goes on) through ``other``, which takes the match."""
    copy = await other.lookup(match_id)
    assert copy is not None
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD
    outcome = await other.act(copy, copy.player_ids[seat], move, copy.version)
    assert outcome.ok, outcome.error


@pytest.mark.parametrize("fails", ["every note", "the note of time owed"])
async def test_a_note_failing_as_the_outage_ends_gives_it_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        fails: str) -> None:
    main, live, deadline = await in_an_outage(world)
    set_metas = main.store.set_metas
    tries = [1]

    async def failing_once(values: dict[str, str]) -> None:
        if tries and (fails == "every note" or owed_key(main.owners.name) in values):
            tries.pop()
            raise ConnectionError("database blip")
        await set_metas(values)

    monkeypatch.setattr(main.store, "set_metas", failing_once)
    await gateway_back(main, None)
    # Not paid before it is noted: owed, the database's notes as they were.
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline, abs=0.01)
    assert main.clock_state.owed
    # A draw through another process meanwhile takes the match with the outage, once.
    await _draw_elsewhere(world, other, live.id)
    await settle(world, main, other)
    world.clock.advance(1)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + OUTAGE, abs=2), \
        "the outage was given twice, or lost"


async def test_a_note_failing_is_paid_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    main, live, deadline = await in_an_outage(world)
    set_metas = main.store.set_metas

    notes_down(monkeypatch, main)
    await gateway_back(main, None)
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline, abs=0.01)
    world.clock.advance(1)
    await main.check_timers()  # the notes still failing: still owed, not judged
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline, abs=0.01)
    assert (await row(world, live.id))["status"] == "active"
    monkeypatch.setattr(main.store, "set_metas", set_metas)
    world.clock.advance(1)
    await main.check_timers()
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + OUTAGE, abs=0.01)
    assert not main.clock_state.owed


async def test_one_failure_of_the_notes_is_warned_once(
        world: World, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    main, _, _ = await in_an_outage(world)

    notes_down(monkeypatch, main)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await gateway_back(main, None)
        world.clock.advance(1)
        await main.check_timers()
    warned = [r.getMessage() for r in caplog.records
              if r.levelno >= logging.WARNING and "heartbeat" in r.getMessage()]
    assert len(warned) == 1, warned


async def test_a_blip_after_time_owed_not_noted_pays_nothing_unnoted(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The notes failing as an outage ends leave its time owed; a gateway blip before the next
    check, given no time, pays nothing unnoted either (review82: it paid what was owed, the
    database saying the clocks still stood, and a draw elsewhere gave the outage again)."""
    main, live, deadline = await in_an_outage(world)

    notes_down(monkeypatch, main)
    await gateway_back(main, None)
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline, abs=0.01)
    # A blip of the gateway (its drop's note failing too) before the next check.
    gateway_lost(main, None)
    world.clock.advance(1)
    await gateway_back(main, None)  # gaps {}: give_back pays what is owed, not noted
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline, abs=0.01), \
        "paid while the notes say the clocks still stand"
    await _draw_elsewhere(world, other, live.id)
    await settle(world, main, other)
    world.clock.advance(1)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert (await row(world, live.id))["deadline"] == pytest.approx(deadline + OUTAGE, abs=2), \
        "the outage was given twice, or lost"


async def test_notes_failing_at_every_check_are_said_once(
        world: World, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Time owed waits to be noted at every check: the database failing, that is said once
    (review82: an INFO line a second)."""
    main, _, _ = await in_an_outage(world)

    notes_down(monkeypatch, main)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await gateway_back(main, None)
        for _ in range(30):
            world.clock.advance(1)
            await main.check_timers()
    lines = [r.getMessage() for r in caplog.records
             if r.levelno >= logging.INFO and "heartbeat" in r.getMessage()]
    assert len(lines) <= 3, f"{len(lines)} lines in 30 s of checks: {lines[:3]}"


async def test_a_heartbeat_saved_ends_the_run_of_failing_notes(
        world: World, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The run of failing notes ends at the next heartbeat saved (the tick's too), not at the
    next note made at once, hours later perhaps (review82)."""
    await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    set_metas = main.store.set_metas

    notes_down(monkeypatch, main)
    assert not await noted(main, "as the gateway dropped")
    monkeypatch.setattr(main.store, "set_metas", set_metas)
    await heartbeat(main)  # the tick's heartbeat works at once
    state = main.clock_state.noting
    assert state.since is None, "the run of failing notes still open after a heartbeat saved"
