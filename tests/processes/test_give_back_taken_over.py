"""Time given back by a process whose match another one takes over meanwhile: the holder is
read, then another process takes the match (its lease lapsed: this one's network down, say)
and gives the turn its own time; the first one's save must not write over the new holder's
deadline. It did: the save was guarded by the match's version alone, which a take-over keeps.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.umtali import reminders, time_out
from cogs.umtali.claims import LEASE
from cogs.umtali.clock_state import LATE
from cogs.umtali.give_back import give_back
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, said, settle, via


async def test_time_given_back_as_another_process_takes_the_match_over_is_not_saved(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    await settle(world, main, other)
    assert live.deadline is not None
    was, version = live.deadline, live.version
    read = main.owners.leases.holder

    async def read_then_taken(match_id: int) -> Any:
        found = await read(match_id)
        # Read as held here; then the lease lapses and the other process takes the match.
        world.clock.advance(LEASE + 1)
        await other.check_timers()
        assert (await row(world, live.id))["owner"] == "p2"
        return found

    monkeypatch.setattr(main.owners.leases, "holder", read_then_taken)
    await give_back(main, {live.id: (was, 600.0)}, "after an outage")
    monkeypatch.setattr(main.owners.leases, "holder", read)
    saved = await row(world, live.id)
    theirs = other.matches[live.id]
    assert saved["owner"] == "p2" and saved["version"] == version
    # The new holder's deadline stands, and this process's copy did not run ahead of it.
    assert saved["deadline"] == theirs.deadline != was + 600.0
    assert live.deadline != was + 600.0


async def test_a_warning_still_to_come_as_another_process_takes_the_match_over_is_not_saved(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The warning failed for now, and is marked still to come with the deadline as this
    process knew it: the other process's, given at its take-over, stands."""
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    await settle(world, main, other)
    assert live.deadline is not None
    was, version = live.deadline, live.version

    async def taken_then_failed(*_: Any) -> None:
        world.clock.advance(LEASE + 1)
        await other.check_timers()
        raise TimeoutError("the network")

    monkeypatch.setattr(reminders, "warn", taken_then_failed)
    await main.warn_if_due(live, was - 30)
    await main.beside.idle()
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved["version"] == version
    assert saved["deadline"] == other.matches[live.id].deadline != was


async def test_a_time_up_question_unasked_as_another_process_takes_the_match_over(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The question could not be posted: the clock runs on as this process knew it, unless
    another process took the match meanwhile (its clock is its own)."""
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    await settle(world, main, other)
    assert live.deadline is not None
    was, version = live.deadline, live.version

    async def taken_then_failed(*_: Any, **__: Any) -> None:
        world.clock.advance(LEASE + 1)
        await other.check_timers(now=world.clock.now)
        return None

    monkeypatch.setattr(time_out, "post", taken_then_failed)
    await time_out.ask_waiting_player(main, live, was + LATE + 1)
    await main.beside.idle()
    # The other process's own question, asked beside its tick if the turn it took has run
    # out too: its clock's save comes before its copy has it (the test read between, once).
    await other.beside.idle()
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved["version"] == version
    assert saved["deadline"] == other.matches[live.id].deadline
    # This process's copy does not run ahead of the database either.
    assert live.deadline is None


async def test_a_turn_resumed_by_a_process_whose_take_over_was_taken_again_is_not_saved(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process takes a match over and is held up before it resumes the turn, past its new
    lease: the match is taken again (here by its first holder), which resumes the turn; the
    late resume must not write over that one's deadline (nor add its notice a second time)."""
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    await settle(world, main, other)
    resume = other.store.resume_turn

    async def held_up(*args: Any, **kwargs: Any) -> Any:
        world.clock.advance(LEASE + 1)
        await main.check_timers(now=world.clock.now)
        assert (await row(world, live.id))["owner"] == "main"
        return await resume(*args, **kwargs)

    monkeypatch.setattr(other.store, "resume_turn", held_up)
    world.clock.advance(LEASE + 60)
    await other.check_timers(now=world.clock.now)
    saved = await row(world, live.id)
    mine = main.matches[live.id]
    assert saved["owner"] == "main"
    assert saved["deadline"] == mine.deadline
    assert json.loads(saved["unsent"]) == mine.unsent


async def test_keep_waiting_as_another_process_takes_the_match_over_runs_the_holders_clock(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Keep waiting" reaches the process holding the match, which another process takes over
    while the answer is being settled (this one's lease lapsed): the time given must be the
    holder's clock. It was saved at the version alone (``Owners.hold`` takes nothing of a copy
    held in memory), under the new holder, whose copy kept its clock stopped: nothing ran
    that turn's clock again, the waiting player never asked again."""
    from tests.discord_helpers import custom_ids, player

    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    absent = live.session.to_act
    assert live.deadline is not None
    await main.check_timers(now=live.deadline + LATE + 1)
    await settle(world, main, other)
    [question] = said(world, live, "time for this turn is up")
    hold = main.owners.hold

    async def taken_meanwhile(*args: Any) -> None:
        # (as the answer is settled: before its take and its save, fix160)
        world.clock.advance(LEASE + 1)
        await other.check_timers(now=world.clock.now)
        assert (await row(world, live.id))["owner"] == "p2"
        await hold(*args)

    monkeypatch.setattr(main.owners, "hold", taken_meanwhile)
    with via(world, main):
        kept = await player(world, 1 - absent).click(question, custom_id=next(
            c for c in custom_ids(question) if c.endswith(":wait")))
    assert kept.acknowledged
    monkeypatch.setattr(main.owners, "hold", hold)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["deadline"] is not None
    # Whoever holds the match now runs the turn's clock as saved.
    holder = {"main": main, "p2": other}[saved["owner"]]
    assert holder.matches[live.id].deadline == saved["deadline"]
