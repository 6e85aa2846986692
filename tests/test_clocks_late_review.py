"""Review of the late-move clock (``cogs/umtali/clock_state.py``): a move is judged, and its
reserve spent, by one deadline, the clock's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from tests.discord_helpers import World, flush, play, start_match
from tests.test_clocks_connect import restarted_slowly
from tests.test_faults_timers import db_row
from umtali.players import GreedyPlayer


async def test_a_turn_ended_before_the_first_check_keeps_its_reserve(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped 70 s into a blitz turn (its own 30 s gone, 40 s of the 120 s reserve spent),
    back at once but slow to connect (150 s): a turn ended once connected, before the first
    check, spends no reserve for the connecting (it is in time for that reason too)."""
    live = await start_match(world, time_control="blitz")
    seat = live.session.to_act
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 80)
    while not restored.over and restored.session.to_act == seat:
        await play(world, restored, GreedyPlayer().choose(restored.session.view(seat)))
    assert not restored.over and restored.session.to_act == 1 - seat
    assert restored.reserves[seat] == pytest.approx(80, abs=2)
    assert db_row(db_path, live.id)[f"reserve{seat}"] == pytest.approx(80, abs=2)
    await svc.check_timers()
    await flush(world)
    assert not restored.over

