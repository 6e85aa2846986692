"""The clock's own claims whose COMMIT went through unheard (``tests.unheard``), on SQLite and
PostgreSQL: the turn's clock stopped to ask the waiting player, and the turn's warning claimed.
Each is claimed once in the database; found claimed already at the next check, it was done by
nobody: the waiting player never asked (the match stalled until a restart), the warning never
sent. The bot reads the claim back and carries on as claimed (``cogs.umtali.unheard``); a
warning whose read-back failed too is sent at the next check, which finds it claimed here."""

from __future__ import annotations

import pytest

from cogs.umtali.clock import warn_before
from cogs.umtali.clock_state import LATE
from tests.discord_helpers import World, player, start_match, thread_of
from tests.processes.helpers import main_of, row, settle
from tests.unheard import lose_answer

#: The clock stopped for the time-up question (``Leases.stop_clock``).
STOP = "SET deadline = NULL, warned = 0 WHERE id = ? AND owner = ?"
#: The turn's warning claimed (``Leases.claim_warning``).
WARN = "SET warned = 1 WHERE id = ? AND owner = ?"
ASKED = "time for this turn is up"


async def test_a_clock_stopped_unheard_asks_the_waiting_player(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, time_control="correspondence")
    main = main_of(world)
    deadline = live.deadline
    assert deadline is not None
    lost = lose_answer(monkeypatch, main.store.db, STOP)
    for k in range(3):
        await main.check_timers(now=deadline + LATE + 1 + k)
        await settle(world, main)
    assert lost.answers == 1
    assert (await row(world, live.id))["deadline"] is None
    assert live.deadline is None and not live.over
    asked = [m for m in thread_of(world, live).history() if ASKED in m.content]
    assert len(asked) == 1


async def test_a_warning_claimed_unheard_is_sent(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    deadline = live.deadline
    assert deadline is not None
    lost = lose_answer(monkeypatch, main.store.db, WARN)
    for k in range(3):
        await main.check_timers(now=deadline - warn_before(live) + k)
        await settle(world, main)
    assert lost.answers == 1
    assert (await row(world, live.id))["warned"] == 1 and live.warned
    warned = [m for m in thread_of(world, live).history()
              if "seconds left for your turn" in m.content]
    assert len(warned) == 1


@pytest.mark.parametrize("correspondence", [False, True])
async def test_a_warning_claimed_unheard_and_unread_is_sent_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch, correspondence: bool) -> None:
    """The claim's read-back fails too: the match is doubted, and its next check finds the
    warning claimed at the turn in memory, held here. Only the holder claims a turn's warning:
    it is this process's own, never sent, and goes out then, once (by correspondence, the
    reminder in the player's DM)."""
    live = await start_match(world, **(
        {"time_control": "correspondence"} if correspondence else {"turn_timer": 60}))
    main = main_of(world)
    deadline, seat = live.deadline, live.session.to_act
    assert deadline is not None
    lost = lose_answer(monkeypatch, main.store.db, WARN, reads_fail=1)
    for k in range(3):
        await main.check_timers(now=deadline - warn_before(live) + k)
        await settle(world, main)
    assert lost.answers == lost.reads == 1
    assert (await row(world, live.id))["warned"] == 1 and live.warned
    if correspondence:
        dm = player(world, seat).user.dm_channel
        warned = [m for m in dm.history() if "Reminder: your turn" in m.content]
    else:
        warned = [m for m in thread_of(world, live).history()
                  if "seconds left for your turn" in m.content]
    assert len(warned) == 1
