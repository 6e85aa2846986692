"""A match taken by a process acting on it (``Owners.hold``: ``/umtali table``, "keep
waiting") whose take's COMMIT went through unheard (``tests.unheard``), on SQLite and
PostgreSQL. The database names that process the holder; before, the action failed all the same,
its process held nothing in memory, nobody ran the match's clock or posted for it until the lease
lapsed. Read back, the take goes on as taken; if the read fails too, the action fails (nothing
of it was saved) and the lease, renewed by nobody, lapses and is claimed again."""

from __future__ import annotations

import pytest
from simcord import assert_error

from cogs.umtali.claims import LEASE
from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import APOLOGY, BUSY
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match, thread_of
from tests.processes.helpers import main_of, row, said, settle, via
from tests.processes.test_unheard_moves import words
from tests.unheard import lose_answer

#: The match taken as the copy in hand has it (``Leases.take``).
TAKE = "SET owner = ?, lease_until = ?, stood_since = NULL WHERE id = ? AND version"


async def _checked(world: World, *services: MatchService) -> None:
    for svc in services:
        await svc.check_timers()
    await settle(world, *services)


async def _run_to(world: World, until: float, *services: MatchService) -> None:
    """Both processes checking their timers, renewing their leases, up to ``until``."""
    while world.clock.now < until:
        world.clock.now = min(until, world.clock.now + RENEW_EVERY)
        await _checked(world, *services)


async def test_a_match_taken_unheard_is_held_where_it_was_taken(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    await settle(world, main, other)
    thread = thread_of(world, live)
    lost = lose_answer(monkeypatch, other.store.db, TAKE)
    # Bob's /umtali table reaches the other process, which takes the match to move its table.
    with via(world, other):
        result = await world.bob.slash(thread, "umtali table")
    await settle(world, main, other)
    assert lost.answers == 1
    assert not any(APOLOGY[:20] in w for w in words(result)), words(result)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved["table_message_id"] == result.response.id
    held = other.matches[live.id]
    # The holder that was drops it at its next renewal; the clock runs where it is held.
    world.clock.advance(RENEW_EVERY)
    await _checked(world, main, other)
    assert live.id not in main.matches and other.matches[live.id] is held
    assert held.deadline is not None
    await _run_to(world, held.deadline + LATE + 1, main, other)
    assert held.over and len(said(world, held, "timed out")) == 1
    assert (await row(world, live.id))["status"] != "active"


async def test_a_match_taken_unheard_and_unread_is_claimed_again_once_its_lease_lapses(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    await settle(world, main, other)
    thread = thread_of(world, live)
    table = live.table_message_id
    lost = lose_answer(monkeypatch, other.store.db, TAKE, reads_fail=1)
    with via(world, other):
        result = await world.bob.slash(thread, "umtali table")
    await settle(world, main, other)
    assert lost.answers == lost.reads == 1
    # Nothing of the action was saved (the take is no move); the database failing is no bug:
    # the member is told to look again, and no error is logged.
    assert any(BUSY[:40] in w for w in words(result)), words(result)
    assert not any(APOLOGY[:20] in w for w in words(result)), words(result)
    assert_error(world.env, contains=str(lost.errors[0]))  # (SimCord's note of it)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved["table_message_id"] == table
    assert live.id not in other.matches
    # Held in the database by a process that does not run it: renewed by nobody, its lease
    # lapses, and it is claimed again; its clock runs there.
    for _ in range(int(LEASE / RENEW_EVERY) + 2):
        world.clock.advance(RENEW_EVERY)
        await _checked(world, main, other)
    holder = (await row(world, live.id))["owner"]
    svc, elsewhere = (main, other) if holder == "main" else (other, main)
    taken = svc.matches[live.id]
    assert live.id not in elsewhere.matches
    assert taken.deadline is not None
    await _run_to(world, taken.deadline + LATE + 1, main, other)
    assert taken.over and len(said(world, taken, "timed out")) == 1
    assert (await row(world, live.id))["status"] != "active"
