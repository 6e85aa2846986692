"""The bot standing still, and what happens here after it woke before the pause is given
back: a turn's clock set since (a move, a match taken over and resumed) runs from then, and is
not given the pause (``LiveMatch.clock_from``). The real timers' loop, as in
``tests.test_clocks_stood_still``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, play, start_match
from tests.test_clocks_stood_still import (
    _in_renewal,
    _timed,
    held_elsewhere_then_killed,
    running,
    taken_over_with,
)
from tests.test_faults_timers import db_row
from umtali.players import GreedyPlayer


async def test_a_match_taken_over_during_a_paused_check_gets_the_time_once(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        other: MatchService) -> None:
    """Paused during a check, before its claims: waking, the check takes over a match whose
    process stopped (its lease lapsed in the pause), resuming its turn up to now, the pause
    in it; the watch, which saw the pause, gave it to that match a second time."""
    live, svc, left = await held_elsewhere_then_killed(world, other)

    async def paused() -> None:
        for _ in range(5):
            await asyncio.sleep(0)  # the watch asleep
        await timers.stand_still(600)

    async with running(world, monkeypatch) as timers:
        await _in_renewal(monkeypatch, svc, timers, paused)
        taken_over_with(world, db_path, svc, live.id, left)


async def test_a_turn_begun_after_a_pause_is_not_given_it(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn played out once the bot woke from a pause, before that pause was given back
    (the leases are renewed first): the next turn's clock runs from that move, and was given
    the pause too, time nobody lost."""
    live = await start_match(world, turn_timer=20)
    svc = world.bot.matches
    assert svc is not None
    renew = svc.owners.tick

    async def played(now: float) -> None:
        monkeypatch.setattr(svc.owners, "tick", renew)
        seat = live.session.to_act
        while live.session.to_act == seat:
            await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
        await renew(now)

    async with running(world, monkeypatch) as timers:
        monkeypatch.setattr(svc.owners, "tick", played)
        await timers.pause(600)
        assert svc.owners.tick == renew, "no pause seen"
        assert not live.over and live.deadline is not None
        assert live.deadline - world.clock.now == pytest.approx(20 * 60, abs=5), \
            "the new turn given the pause"
        assert db_row(db_path, live.id)["deadline"] == live.deadline


async def test_a_move_while_a_pause_is_being_given_back_is_in_time(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Woken from a pause that ran past the turn's deadline, the bot renews its leases before
    giving the pause back: a move reaching it meanwhile, made after it woke, was refused as
    late ("Your time ran out") for time nobody could play."""
    live, svc = await _timed(world)
    renew = svc.owners.tick
    seat = live.session.to_act
    made: list[Any] = []

    async def moved(now: float) -> None:
        monkeypatch.setattr(svc.owners, "tick", renew)
        move = GreedyPlayer().choose(live.session.view(seat))
        try:
            made.append(await play(world, live, move))
        except AssertionError as e:  # refused: not played
            made.append(e)
        await renew(now)

    async with running(world, monkeypatch) as timers:
        assert live.deadline is not None
        before = live.deadline
        monkeypatch.setattr(svc.owners, "tick", moved)
        await timers.pause(600)
        assert made and not isinstance(made[0], AssertionError), made
        assert not live.over and live.version == 1
        # The turn goes on with the pause given back.
        assert live.deadline == pytest.approx(before + 600, abs=1)


async def test_a_stop_before_a_pause_is_given_back_keeps_it_for_the_restart(
        world: World, monkeypatch: pytest.MonkeyPatch,
        make_bot: Callable[[], UmtaliBot]) -> None:
    """Told to stop as it woke from a pause (a stopped process sent SIGTERM, then let go on),
    the bot closed while the pause was being given back: its last note said it was alive at
    the close, so the restart gave each turn what was left then, the pause taken from it."""
    from cogs.umtali.clock import GRACE
    from cogs.umtali.standing_still import judge_stood

    live, svc = await _timed(world)
    await svc.check_timers()
    assert live.deadline is not None
    left = live.deadline - world.clock.now
    since = world.clock.now
    world.clock.advance(600)
    svc.clock_state.stood.append((since, world.clock.now))

    async def stopping(now: float) -> None:
        await svc.close()  # the clean stop's note, the renewal on its way
        raise asyncio.CancelledError

    monkeypatch.setattr(svc.owners, "tick", stopping)
    with pytest.raises(asyncio.CancelledError):
        async with svc.clock_state.judging:
            await judge_stood(svc)
    world.clock.advance(60)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    await again.matches.check_timers()
    restored = again.matches.matches[live.id]
    assert restored.deadline is not None and left > GRACE
    assert restored.deadline - world.clock.now == pytest.approx(left, abs=2), \
        "the pause taken from the turn"


async def test_a_move_after_a_pause_seen_during_a_check_is_in_time(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot suspended as a check held the judging, the turn's deadline passing meanwhile:
    a move made as it woke, the pause seen by the watch and not judged yet (waiting for that
    check), is judged with the time the pause will give (``clock_state.unjudged``); it was
    refused as late, though the check then gave the turn the pause (review92)."""
    live, svc = await _timed(world)
    seat = live.session.to_act
    made: list[Any] = []

    async def paused_then_moved() -> None:
        await timers.stand_still(600)  # suspended mid-check; the watch sees it
        assert svc.clock_state.stood, "the watch saw no pause"
        move = GreedyPlayer().choose(live.session.view(seat))
        try:
            made.append(await play(world, live, move))
        except AssertionError as e:  # refused
            made.append(e)

    async with running(world, monkeypatch) as timers:
        await _in_renewal(monkeypatch, svc, timers, paused_then_moved)
        assert made and not isinstance(made[0], AssertionError), \
            f"a move made as the bot woke was refused: {made}"
        assert not live.over
