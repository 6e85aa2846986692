"""The database's return after an outage (``cogs.umtali.db_outage``), review133: a turn whose
deadline fell between the last save that worked and the failure was revived with the 2 s it
had then, and pinged "2 seconds left"; a move failed for the database in its turn's last
seconds left its player no real chance to retry once it worked again (given back only the
seconds it had); an outage under 5 s (a PostgreSQL connection failing at once) gave nothing
back. Now each such turn gets at least the floor a restart gives (``clock.GRACE``, or the
whole turn if shorter), and the outage is told in the match's channel as a restart's is; a
turn that ran out before the last save that worked still forfeits (SimCord, virtual time, the
real SQLite file's writes refused "database is locked")."""

from __future__ import annotations

import pytest
from simcord import assert_error

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock_state import LATE
from cogs.umtali.judged import made_in_time
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_clocks_database_outage import Writes, _move, _said, down_for
from tests.test_clocks_late_moves import REFUSED
from tests.test_clocks_warning import WARNED
from tests.test_faults_timers import to_turn_end

#: The notice after a database outage, as posted in English.
UNSAVED = "I could not save moves"


def _notices(world: World, live: LiveMatch) -> list[str]:
    return [m.content for m in thread_of(world, live).history() if UNSAVED in m.content]


async def test_a_turn_run_out_after_the_last_save_gets_a_floor_not_a_ping(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    # The last write that worked, 2 s before the deadline: the outage heard of at the check
    # after it is dated back to then (the bot cannot know when the database failed).
    world.clock.now = deadline - 2
    await heartbeat(svc)
    writes = Writes(world, monkeypatch)
    writes.down = True
    world.clock.now = deadline + LATE + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over
    writes.down = False
    back = deadline + 30
    world.clock.now = back
    await svc.check_timers(now=back)
    await flush(world)
    assert not live.over
    # Not the 2 s it had then ("2 seconds left" pinged at once), but the floor.
    assert live.deadline == pytest.approx(back + 60)
    world.clock.now = back + 1
    await svc.check_timers(now=back + 1)
    await flush(world)
    # (a warning of the floor's minute, as after a restart's grace, is true)
    warnings = [m.content for m in thread_of(world, live).history() if WARNED in m.content]
    assert all("60 seconds left" in text for text in warnings), warnings
    # (32 s, not told: under a twentieth of the turn timer's hour)
    assert _notices(world, live) == []


@pytest.mark.parametrize("at", [-1.0, 2.0])
async def test_a_move_failed_in_its_last_seconds_can_be_retried(
        world: World, monkeypatch: pytest.MonkeyPatch, at: float) -> None:
    """Failed 1 s before the deadline, or 2 s after it (in time: made before it, on its
    way), the move is retried 3 s after the database works again, and played."""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline, version = live.deadline, live.version
    writes = Writes(world, monkeypatch)
    writes.down = True
    world.clock.now = deadline + at
    await _move(world, live)
    assert_error(world.env, contains="database is locked")
    for now in (deadline + LATE + 1, deadline + 60):
        world.clock.now = now
        await svc.check_timers(now=now)
    writes.down = False
    world.clock.now = deadline + 100
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over
    world.clock.now = deadline + 103
    # (judged as the clock judges it: the virtual clock's jump, seen as a pause of the bot's,
    # would give the time all the same once the move is under way)
    assert made_in_time(svc, live, world.clock.now, world.clock.now)
    await svc.check_timers(now=world.clock.now)
    assert not live.over
    answer = await _move(world, live)
    assert REFUSED not in _said(answer), _said(answer)
    assert not live.over and live.version == version + 1


async def test_a_short_database_outage_is_given_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move failed 3 s before the deadline, the database back 4 s later: under the 5 s a
    gateway blip must last to be given back, it gave nothing, and the retry at once was
    late. Too short to tell in the channel."""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline, version = live.deadline, live.version
    writes = Writes(world, monkeypatch)
    world.clock.now = deadline - 3
    writes.down = True
    await _move(world, live)
    assert_error(world.env, contains="database is locked")
    writes.down = False
    world.clock.now = deadline + 1
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    world.clock.now = deadline + 2
    # (judged as the clock judges it: the virtual clock's jump, seen as a pause of the
    # bot's, would give the time all the same once the move is under way)
    assert made_in_time(svc, live, world.clock.now, world.clock.now)
    answer = await _move(world, live)
    assert REFUSED not in _said(answer), _said(answer)
    assert live.version == version + 1
    assert _notices(world, live) == []


async def test_a_turn_with_time_left_gets_only_the_outages_time(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Normal (5 min a turn): 200 s left as the database fails, no move tried; it gets the
    40 s the clocks stood still, no floor, and the outage is told (40 s, over 30 s and a
    twentieth of the turn's 5 minutes)."""
    live = await start_match(world, time_control="normal")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    await down_for(world, Writes(world, monkeypatch), deadline - 200, deadline - 160)
    assert live.deadline == pytest.approx(deadline + 40, abs=0.5)
    notices = _notices(world, live)
    assert len(notices) == 1 and "40 seconds" in notices[0], notices
    assert f"<t:{int(live.deadline)}:R>" in notices[0], notices


async def test_the_floor_is_the_turns_own_time_not_banked_in_the_reserve(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blitz (30 s a turn, 2 min reserve): 2 s of the reserve left, the turn's last move fails
    to save; the database back 40 s later, the turn gets the floor (its 30 s turn), its
    reserve cut to the 2 s it had, as a restart's grace: played within the floor, the reserve
    keeps 2 s, not the floor's time. The outage, 40 s, is told."""
    live = await start_match(world, time_control="blitz")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    slow, start = live.session.to_act, world.clock.now
    await to_turn_end(world, live)
    writes = Writes(world, monkeypatch)
    writes.down = True
    world.clock.now = start + 148
    await _move(world, live)
    assert_error(world.env, contains="database is locked")
    writes.down = False
    back = start + 188
    world.clock.now = back
    await svc.check_timers(now=back)
    await flush(world)
    assert not live.over and live.deadline == pytest.approx(back + 30)
    assert live.reserves[slow] == pytest.approx(2)
    assert live.reserve_running is None  # (its own time runs: the floor)
    notices = _notices(world, live)
    assert len(notices) == 1 and "40 seconds" in notices[0], notices
    world.clock.now = back + 10
    answer = await _move(world, live)
    assert REFUSED not in _said(answer), _said(answer)
    assert live.session.to_act != slow
    assert live.reserves[slow] == pytest.approx(2)
