"""A takeover whose read fails midway (``cogs/umtali/claims.py``): the match it could not bring
into memory is let go, or left to lapse, and claimed again; never held in the database by a
process that does not run it (its timers would never run again)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.alive import alive_key
from cogs.umtali.claims import LEASE, WARN_AGAIN
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.owners import RENEW_EVERY
from tests.discord_helpers import World, flush, start_match, start_practice
from tests.test_faults_channel import _db
from umtali.players import GreedyPlayer


def _holder(db_path: Path, match_id: int) -> tuple[str, float]:
    owner, until = _db(db_path, "SELECT owner, lease_until FROM matches WHERE id = ?",
                       match_id)[0]
    return str(owner), float(until)


def _fail_once(monkeypatch: pytest.MonkeyPatch, target: Any, name: str) -> None:
    real = getattr(target, name)
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(target, name, flaky)


async def test_a_match_whose_read_fails_during_a_takeover_is_let_go_and_claimed_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, turn_timer=60)
    # Its holder, another process, was killed: its lease ran out.
    _db(db_path, "UPDATE matches SET owner = 'other', lease_until = 0")
    svc.owners.drop(live)
    _fail_once(monkeypatch, svc.store, "match")
    world.clock.now += 1
    await svc.check_timers(now=world.clock.now)
    # Not brought in: not held here either, in the database, but claimable as before.
    assert live.id not in svc.matches
    assert _holder(db_path, live.id) == ("other", 0.0)
    world.clock.now += 1
    await svc.check_timers(now=world.clock.now)
    taken = svc.matches[live.id]
    assert _holder(db_path, live.id)[0] == "main"
    # Its clock runs here: the turn times out.
    assert taken.deadline is not None
    world.clock.now = taken.deadline + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert taken.over


async def test_a_claim_that_cannot_be_undone_lapses_and_is_claimed_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, turn_timer=10)
    now = world.clock.now
    # The other process stopped two minutes ago: the turn is given back its time, a write.
    _db(db_path, "UPDATE matches SET owner = 'other', lease_until = ?", now - 130)
    await svc.store.set_meta(alive_key("other"), repr(now - 120))
    svc.owners.drop(live)
    _fail_once(monkeypatch, svc.store, "resume_turn")
    _fail_once(monkeypatch, svc.owners.leases, "unclaim")
    world.clock.now += 1
    await svc.check_timers(now=world.clock.now)
    assert live.id not in svc.matches
    owner, until = _holder(db_path, live.id)
    assert owner == "main"
    # Renewals leave it alone (it is not in memory): the lease lapses ...
    for _ in range(4):
        world.clock.now += RENEW_EVERY
        await svc.check_timers(now=world.clock.now)
        if live.id in svc.matches:
            break
        assert _holder(db_path, live.id) == ("main", until)
    # ... and this process claims it again once it has.
    assert world.clock.now > until
    taken = svc.matches[live.id]
    assert _holder(db_path, live.id) == ("main", world.clock.now + LEASE)
    assert taken.deadline is not None and not taken.over
    await flush(world)


async def test_a_computer_move_saved_as_its_match_is_dropped_is_not_orphaned(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_practice(world)
    computer = live.computer_seat
    assert computer is not None and live.session.to_act != computer
    real = svc.store.record_move

    async def record(**kwargs: Any) -> Any:
        if kwargs["seat"] == computer and live.id in svc.matches:
            # While the computer's move is being saved, the match is dropped from memory (a
            # renewal found it held elsewhere): its turn is cancelled, its write commits.
            asyncio.get_running_loop().call_soon(svc.owners.drop, live)
        return await real(**kwargs)

    monkeypatch.setattr(svc.store, "record_move", record)
    human = live.session.to_act
    while live.session.to_act == human:
        move = GreedyPlayer().choose(live.session.view(human))
        assert (await svc.act(live, live.player_ids[human], move, live.version)).ok
    for _ in range(100):
        if live.id not in svc.matches:
            break
        await asyncio.sleep(0)
    await asyncio.sleep(0.1)  # the write commits
    assert live.id not in svc.matches
    saved = _db(db_path, "SELECT version, owner FROM matches WHERE id = ?", live.id)[0]
    assert saved[0] > live.version and saved[1] == "main"
    # Held in the database, by nobody in memory: not renewed, so claimed again once lapsed,
    # and the computer plays on.
    for _ in range(4):
        world.clock.now += RENEW_EVERY
        await svc.check_timers(now=world.clock.now)
        if live.id in svc.matches:
            break
    taken = svc.matches[live.id]
    await flush(world)
    assert taken.version >= saved[0] and (taken.over or taken.session.to_act == human)


async def test_a_match_that_can_never_be_taken_over_is_warned_of_once_in_a_while(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, turn_timer=60)
    _db(db_path, "UPDATE matches SET owner = 'other', lease_until = 0")
    svc.owners.drop(live)
    real = svc.store.match

    async def broken(match_id: int) -> Any:
        if match_id == live.id:  # as a row no version of the code can read
            raise ValueError("unreadable state")
        return await real(match_id)

    monkeypatch.setattr(svc.store, "match", broken)

    def warned() -> list[str]:
        return [r.getMessage() for r in caplog.records
                if r.levelname == "WARNING" and "could not be taken over" in r.getMessage()]

    with caplog.at_level(logging.DEBUG, logger="cogs.umtali.claims"):
        for _ in range(5):
            world.clock.now += 1
            await svc.check_timers(now=world.clock.now)
        # Tried at every check, warned of once.
        assert live.id not in svc.matches
        assert _holder(db_path, live.id) == ("other", 0.0)
        assert len(warned()) == 1, warned()
        world.clock.now += WARN_AGAIN
        await svc.check_timers(now=world.clock.now)
        assert len(warned()) == 2 and "(4 more time(s) since the last warning)" in warned()[1]
        # Readable again: taken over.
        monkeypatch.setattr(svc.store, "match", real)
        world.clock.now += 1
        await svc.check_timers(now=world.clock.now)
        assert live.id in svc.matches


@pytest.mark.parametrize("during", ["holder", "match"])
async def test_a_match_brought_in_while_it_is_looked_up_is_the_copy_held(
        world: World, monkeypatch: pytest.MonkeyPatch, during: str) -> None:
    """An action looks the match up as the tick brings it in (its holder stopped), during
    the read of its holder or of its row: the copy the tick adopted, not a second one loaded
    fresh, which the action's save would then put in its place (the tick's queued deliveries
    dropped with it)."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    svc.forget(live)  # not in memory, its lease this process's: as just claimed by the tick
    read_row = svc.store.match
    target = svc.owners.leases if during == "holder" else svc.store
    read = getattr(target, during)

    async def tick_meanwhile(match_id: int) -> Any:
        row = await read_row(match_id)
        assert row is not None
        svc.owners.adopt(LiveMatch.from_row(row))  # the tick's bring-in, done meanwhile
        return await read(match_id)
    monkeypatch.setattr(target, during, tick_meanwhile)
    found = await svc.lookup(live.id)
    assert found is not None and found is svc.matches.get(live.id)


async def test_a_match_brought_in_while_its_stopped_holder_is_read_is_not_dropped(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The read of the holder names the stopped process, and the tick claims the match and
    brings it in before that answer is back: the tick's copy was dropped as held elsewhere
    (by any look at the match: its lease, held here, then lapsed, not renewed, and the match
    was resumed once more by whoever claimed it next)."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    svc.forget(live)
    _db(db_path, "UPDATE matches SET owner = 'stopped' WHERE id = ?", live.id)
    leases = svc.owners.leases
    read = leases.holder

    async def claimed_meanwhile(match_id: int) -> str | None:
        holder = await read(match_id)
        # The tick's claim and bring-in, done before the read's answer is back.
        _db(db_path, "UPDATE matches SET owner = ? WHERE id = ?", svc.owners.name, match_id)
        row = await svc.store.match(match_id)
        assert row is not None
        svc.owners.adopt(LiveMatch.from_row(row))
        return holder
    monkeypatch.setattr(leases, "holder", claimed_meanwhile)
    found = await svc.lookup(live.id)
    held = svc.matches.get(live.id)
    assert held is not None, "the copy the tick brought in was dropped"
    assert found is held
