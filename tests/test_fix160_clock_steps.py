"""Steps of the system's clock are neither time given nor time taken (fix160): a player must
not gain or lose turn time because the server's clock was corrected. A step back was not
taken off the running turn (it gained the step); a step back then forward gave the turn the
forward step in full (the watch beside the timers' loop saw the step back, the loop the step
forward, each alone); steps under 5 s were each let go, never added up (NTP stepping a
drifting clock by seconds, again and again: the turn lost them all, or gained them). The real
timers' loop over SimCord, virtual time: ``Clock.step`` sets the wall clock apart from the
steady one, ``Timers.ticks`` lets a second go by at each tick."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord_helpers import World, start_match
from tests.test_clocks_stood_still import running
from tests.test_faults_timers import db_row

#: Ten minutes: a step.
STEP = 600.0


async def _left_after(world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path,
                      steps: list[float], watched: bool = False) -> tuple[float, float]:
    """A two-minute turn, the clock stepped by each of ``steps`` with a tick after each (with
    ``watched``, the watch beside the loop wakes after each step, before the tick); two more
    ticks: the time the turn had left first, and what it has left now, less the ticks gone by
    (the steps neither given nor taken: the same)."""
    live = await start_match(world, turn_timer=2)
    assert live.deadline is not None
    async with running(world, monkeypatch) as timers:
        left = live.deadline - world.clock.now
        ticked = 0.0
        for step in steps:
            world.clock.step(step)
            if watched:
                await timers.stand_still(0)
            else:
                await timers.ticks(1)
                ticked += 1
        await timers.ticks(2)
        ticked += 2
        assert not live.over and live.deadline is not None
        assert db_row(db_path, live.id)["deadline"] == live.deadline  # (saved, as memory)
        return left, live.deadline - world.clock.now + ticked


async def test_a_step_back_is_taken_off_the_running_turn(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path) -> None:
    left, now = await _left_after(world, monkeypatch, db_path, [-STEP])
    assert now == pytest.approx(left, abs=1.5), "the turn gained the step back"


async def test_a_step_back_then_forward_gives_the_turn_nothing(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path) -> None:
    left, now = await _left_after(world, monkeypatch, db_path, [-STEP, STEP])
    assert now == pytest.approx(left, abs=1.5)


async def test_a_step_back_seen_by_the_watch_then_forward_gives_the_turn_nothing(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path) -> None:
    left, now = await _left_after(world, monkeypatch, db_path, [-STEP, STEP], watched=True)
    assert now == pytest.approx(left, abs=1.5), "the step forward given, not the one back"


@pytest.mark.parametrize("step", [3.0, -3.0])
async def test_small_steps_add_up(world: World, monkeypatch: pytest.MonkeyPatch,
                                  db_path: Path, step: float) -> None:
    left, now = await _left_after(world, monkeypatch, db_path, [step] * 4)
    # (the last 3 s step, under 5 s, waits for the next to add up: let go or taken with it)
    assert now == pytest.approx(left, abs=1.5), f"four {step:+.0f} s steps went to the turn"


async def test_a_move_after_the_turns_time_is_refused_though_the_clock_stepped_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's own time ran out (on the steady clock), the clock stepped back ten minutes
    just before the move reached the bot (the timers asleep): judged with the step taken off,
    it is late, as the check would judge it; it was played, on ten minutes the player never
    had."""
    from tests.discord_helpers import player, thread_of
    from umtali.players import GreedyPlayer

    live = await start_match(world, turn_timer=2)
    assert live.deadline is not None
    async with running(world, monkeypatch) as timers:
        await timers.ticks(int(live.deadline - world.clock.now) - 1)
        assert not live.over
        world.clock.advance(6)  # (the timers asleep: past the turn's deadline, and LATE)
        world.clock.step(-STEP)
        seat, version = live.session.to_act, live.version
        move = GreedyPlayer().choose(live.session.view(seat))
        played = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                                 move=str(move))
        assert played.acknowledged
        assert live.version == version, "a move played on time the player never had"
        assert "time ran out" in str(played.response and played.response.content)


@pytest.mark.parametrize("step", [STEP, -STEP])
async def test_a_step_in_a_gateway_outage_is_neither_given_nor_taken(
        world: World, monkeypatch: pytest.MonkeyPatch, step: float) -> None:
    """The outage stands the turn's clock still, and gives back the time it stood still read
    on the wall clock, which takes the step with it: not owed it again (nor, stepped back
    longer than the outage lasted, left with it: that time was given as nothing)."""
    from cogs.umtali.clock import gateway_back, gateway_lost

    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    async with running(world, monkeypatch) as timers:
        left = live.deadline - world.clock.now
        gateway_lost(svc, None)
        await timers.ticks(2)
        world.clock.step(step)
        await timers.ticks(2)
        await gateway_back(svc, None)
        await timers.ticks(1)
        assert not live.over and live.deadline is not None
        assert live.deadline - world.clock.now + 1 == pytest.approx(left, abs=1.5)


async def test_a_pause_in_the_sleep_the_clock_stepped_back_in_is_given_back(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock stepped back, then the bot paused a minute, in one sleep of the timers: the
    step is taken off, the pause given back (judged after the step back, what was judged
    before is ahead of the clock: the pause was cut by it, and lost)."""
    live = await start_match(world, turn_timer=2)
    assert live.deadline is not None
    async with running(world, monkeypatch) as timers:
        left = live.deadline - world.clock.now
        world.clock.step(-STEP)
        await timers.pause(60)  # (then a tick)
        assert not live.over and live.deadline is not None
        assert live.deadline - world.clock.now + 2 == pytest.approx(left, abs=1.5)
