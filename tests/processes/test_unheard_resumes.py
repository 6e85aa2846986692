"""A turn resumed after downtime (``resume_after_downtime``: a match taken over, or taken back
at a restart) whose save's COMMIT went through unheard (``tests.unheard``), on SQLite and
PostgreSQL. Before, the match was let go as not brought in, claimed again and resumed a second
time on the deadline already moved on: the turn given its time back twice, and the "I was
offline" notice queued twice. Read back, the resume is carried on as saved; if the read fails
too, the claim is kept and the match brought in at the next check, which reads which."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import GRACE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import kill, main_of, row, said, settle
from tests.unheard import lose_answer
from umtali.players import GreedyPlayer

#: The turn's deadline moved on after downtime (``Store.resume_turn``).
RESUME = "SET deadline = ?, warned = 0, stood_since = NULL, reserve"
OFFLINE = "I was offline for"


async def killed(world: World, *others: MatchService) -> tuple[LiveMatch, float, float]:
    """A timed match whose process (the bot's) was killed a minute and more ago, its lease
    lapsed for the others to take over: the match, the time its turn had left at the kill,
    and now. Turns of five minutes, so that the outage (some 75 s) is told (of an hour, it is
    not: ``NOTICE_SHARE``)."""
    live = await start_match(world, turn_timer=5)
    main = main_of(world)
    await settle(world, main, *others)
    assert live.deadline is not None
    await heartbeat(main)
    left = live.deadline - world.clock.now
    await kill(main)
    world.clock.advance(LEASE + 60)
    return live, left, world.clock.now


@pytest.mark.parametrize("reads_fail", [0, 1])
async def test_a_turn_resumed_unheard_is_resumed_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        reads_fail: int) -> None:
    live, left, taken_at = await killed(world, other)
    lost = lose_answer(monkeypatch, other.store.db, RESUME, reads_fail=reads_fail)
    for _ in range(3):
        await other.check_timers()
        await settle(world, other)
        world.clock.advance(1)
    assert lost.answers == 1 and lost.reads == reads_fail
    saved = await row(world, live.id)
    theirs = other.matches[live.id]
    assert saved["owner"] == "p2"
    # The turn gets back what it had left, once (at least the grace), and its clock runs here
    # as saved; the channel is told of the outage once (the announcements waiting are posted
    # together, as one message).
    assert sum(m.content.count(OFFLINE) for m in said(world, theirs, OFFLINE)) == 1
    assert saved["deadline"] == pytest.approx(taken_at + max(left, GRACE), abs=1.5)
    assert theirs.deadline == saved["deadline"]
    assert saved["unsent"] == "[]" and not saved["warned"]


async def test_a_turn_resumed_unheard_and_unread_is_not_taken_over_again_meanwhile(
        world: World, other: MatchService, third: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The resume's outcome unknown, the match stays claimed by the process that resumed it,
    until it reads the outcome: let go, a third process would claim it and resume it again."""
    live, left, taken_at = await killed(world, other, third)
    lost = lose_answer(monkeypatch, other.store.db, RESUME, reads_fail=1)
    await other.check_timers()
    assert lost.answers == lost.reads == 1 and live.id not in other.matches
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved["lease_until"] > world.clock.now
    for _ in range(3):
        await third.check_timers()
        await settle(world, third)
        world.clock.advance(1)
        await other.check_timers()
        await settle(world, other)
    # Resumed once: its time given back once, the outage told once.
    saved = await row(world, live.id)
    assert saved["deadline"] == pytest.approx(taken_at + max(left, GRACE), abs=1.5)
    assert sum(m.content.count(OFFLINE) for m in said(world, live, OFFLINE)) == 1
    assert saved["owner"] == "p2" and live.id not in third.matches
    assert other.matches[live.id].deadline == saved["deadline"]


async def test_a_turn_resumed_unsaved_and_unread_is_resumed_before_a_move_is_judged(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The resume fails unsaved and its read-back fails too: the match is held here, not yet
    in memory. A move on it reaching this process before the next check brings it in first
    (its turn resumed): judged on the deadline saved before the downtime, it was refused as
    late and the turn forfeited, though nobody ran its clock meanwhile."""
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    await settle(world, main, other)
    assert live.deadline is not None
    await heartbeat(main)
    await kill(main)
    # Killed a while ago: past the turn's deadline as saved.
    world.clock.advance(live.deadline - world.clock.now + LEASE + 10)
    resume, read = other.store.resume_turn, other.store.match
    failing = {"resume": 1, "read": 0}

    async def unsaved(*args: object, **kwargs: object) -> list[str] | None:
        if failing["resume"]:
            failing["resume"], failing["read"] = 0, 1
            raise OSError("the database is out of reach")
        return await resume(*args, **kwargs)  # type: ignore[arg-type]

    async def unread(match_id: int) -> object:
        if failing["read"]:
            failing["read"] = 0
            raise OSError("the database is out of reach")
        return await read(match_id)

    monkeypatch.setattr(other.store, "resume_turn", unsaved)
    monkeypatch.setattr(other.store, "match", unread)
    await other.check_timers()
    assert live.id not in other.matches
    assert (await row(world, live.id))["owner"] == "p2"
    theirs = await other.lookup(live.id)
    assert theirs is not None
    seat = theirs.session.to_act
    outcome = await other.act(theirs, theirs.player_ids[seat],
                              GreedyPlayer().choose(theirs.session.view(seat)))
    assert outcome.ok, outcome.error
    await other.check_timers()
    await settle(world, other)
    saved = await row(world, live.id)
    assert saved["status"] == "active" and saved["version"] == theirs.version > live.version
    assert other.matches[live.id] is theirs


async def test_an_unread_resume_failing_again_is_kept_and_said_so(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Its resume unread, the match is brought in again at the next check; failing again,
    it is kept claimed for the check after. The warning said it was let go, to be claimed
    again, which it is not (the lease is renewed: claimed again, it would be resumed twice)."""
    caplog.set_level(logging.WARNING)
    live, left, taken_at = await killed(world, other)
    lost = lose_answer(monkeypatch, other.store.db, RESUME, reads_fail=1)
    await other.check_timers()
    assert lost.answers == lost.reads == 1 and live.id not in other.matches
    caplog.clear()
    lost.failing = 1  # the next check's read fails too
    world.clock.advance(1)
    await other.check_timers()
    assert lost.reads == 2 and live.id not in other.matches
    said = [r.getMessage() for r in caplog.records if f"match {live.id}" in r.getMessage()]
    assert said and not any("let go" in s for s in said), said
    assert (await row(world, live.id))["owner"] == "p2"
    world.clock.advance(1)
    await other.check_timers()
    await settle(world, other)
    saved = await row(world, live.id)
    assert other.matches[live.id].deadline == saved["deadline"] == pytest.approx(
        taken_at + max(left, GRACE), abs=2.5)
