"""A DM refused while the database is busy (another writer holding the SQLite file past the
busy timeout, a PostgreSQL row locked past the lock timeout): the refusal could not be saved,
or its notice not claimed. The database failing for now, as a 5xx is Discord's: the send
gives up quietly, nothing in memory ahead of the database, and the next send there finds the
refusal again (an unsaved refusal) or the seat's next delivery tells it (a notice owed). The
reminder's refusal escaped as "database is locked" (sqlite3.OperationalError, not an OSError):
the reminder was dropped, logged as a failure of the clock's. A bug of ours still escapes."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import _dm, turn_warning
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, player, start_match
from tests.processes.helpers import main_of, row, said
from tests.test_faults_channel import _lose_thread
from tests.unheard import lose_answer

#: The bot's busy (lock) timeout here, 5 s in use: a write waiting on the busy database fails
#: after it.
TIMEOUT = 0.5
REFUSED = "I can't send you direct messages"


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the bot opens its store (autouse fixtures come first)."""
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", TIMEOUT)
    monkeypatch.setattr("data.pg_db.BUSY_TIMEOUT", TIMEOUT)


@asynccontextmanager
async def busy(store_target: str | Path, match_id: int) -> AsyncIterator[None]:
    """Another process writing meanwhile: the SQLite file's write lock held, or the match's
    row locked in PostgreSQL."""
    if isinstance(store_target, Path):
        other = sqlite3.connect(store_target, isolation_level=None, timeout=0)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    conn = await asyncpg.connect(store_target)
    try:
        async with conn.transaction():
            await conn.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
            yield
    finally:
        await conn.close()


async def closed_dms(world: World) -> tuple[LiveMatch, MatchService, int]:
    """A match by correspondence, held by the bot, the seat to act's DMs closed (a new message
    and an edit alike refused): the match, its holder and the seat."""
    live = await start_match(world, time_control="correspondence")
    svc = main_of(world)
    await flush(world)
    seat = live.session.to_act
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    return live, svc, seat


async def test_a_reminder_refused_as_the_database_is_busy_is_found_again_next_time(
        world: World, store_target: str | Path) -> None:
    live, svc, seat = await closed_dms(world)
    assert live.deadline is not None
    async with busy(store_target, live.id):
        # The reminder's DM refused, its refusal not saved: no failure of the clock's, the
        # reminder said in the channel instead.
        await turn_warning(svc, live, seat, 60)
    assert said(world, live, "your turn ends"), "the reminder was not given in the channel"
    assert not live.dm_refused[seat]  # memory not ahead of the database
    assert not (await row(world, live.id))[f"dm_refused{seat}"]
    # The next send there finds the refusal again, saved and told this time.
    assert await _dm(svc, live, seat, "Your turn", "again") is False
    assert live.dm_refused[seat] and (await row(world, live.id))[f"dm_refused{seat}"]
    assert len(said(world, live, REFUSED)) == 1


async def test_a_refusal_whose_notice_cannot_be_claimed_is_told_at_the_next_delivery(
        world: World, store_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, svc, seat = await closed_dms(world)
    said_now = svc.delivery.refusal_said

    async def said_while_busy(live: LiveMatch, seat: int) -> None:
        # The refusal saved, the database busy as its notice is claimed.
        async with busy(store_target, live.id):
            await said_now(live, seat)

    monkeypatch.setattr(svc.delivery, "refusal_said", said_while_busy)
    assert await _dm(svc, live, seat, "Your turn", "reminder") is False
    monkeypatch.undo()
    assert live.dm_refused[seat] and (await row(world, live.id))[f"dm_refused{seat}"]
    assert said(world, live, REFUSED) == []
    # Owed, here and as saved: the seat's next delivery tells it, once.
    live.dm_shown[seat] = None
    svc.delivery.enqueue(live, Batch(hands={seat}))
    await flush(world)
    assert len(said(world, live, REFUSED)) == 1


async def test_a_bug_saving_a_refusal_still_escapes(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, svc, seat = await closed_dms(world)

    async def broken(live: LiveMatch, seat: int) -> None:
        raise sqlite3.OperationalError("no such table: matches")

    monkeypatch.setattr(svc.delivery, "refusal_saved", broken)
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await _dm(svc, live, seat, "Your turn", "reminder")


async def test_a_refusal_abandoning_a_match_in_dms_unheard_is_settled_by_the_clock(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played in DMs (its channel lost), a seat's DMs refusing the bot leave nobody to tell
    of anything: the match is abandoned. That save's answer lost and its read back failing
    (``InDoubt``: the database out of reach, no bug), the reminder's send gives up quietly,
    and the clock's next check settles it (``doubted``)."""
    live = await start_match(world)
    svc = main_of(world)
    await flush(world)
    _lose_thread(world, live)
    svc.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost and not live.over
    seat = 1 - live.session.to_act
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    lost = lose_answer(monkeypatch, svc.store.db, "SET status = 'finished'", reads_fail=1)
    assert await _dm(svc, live, seat, "Your turn", "reminder") is False
    assert lost.answers == 1 and lost.reads == 1
    monkeypatch.undo()
    assert (await row(world, live.id))["status"] == "finished"
    world.clock.advance(1)
    await svc.check_timers()
    await flush(world)
    assert live.over and live.abandoned
