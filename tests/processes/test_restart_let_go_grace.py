"""A restart's own match let go at its start (its bring-in failing), with little time left at
the stop: its turn gets at least the minute of grace a resume gives, whether the next tick
claims it or a player acts on it here first (``Owners.lookup``, ``Claims.down_kept``; review93:
only what it had left, the move refused). SimCord, virtual time, both backends."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import GRACE
from data.store import Store
from tests.discord_helpers import World
from tests.processes.helpers import checked, process
from tests.processes.test_takeover import kill
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


@pytest.mark.parametrize("first", ["the tick", "a draw here"])
async def test_a_let_go_match_with_little_time_left_gets_the_grace_either_way(
        world: World, store_target: Any, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    live, main = await checked(world, turn_timer=5)
    assert live.deadline is not None
    world.clock.now = live.deadline - 10  # 10 s left as the process is last noted alive
    await heartbeat(main)
    await kill(main)
    world.clock.advance(120)
    real = Store.match
    fails = [1]

    async def once_busy(self: Store, match_id: int) -> Any:
        if match_id == live.id and fails[0]:
            fails[0] -= 1
            raise OSError("the database is unreachable")
        return await real(self, match_id)

    monkeypatch.setattr(Store, "match", once_busy)
    async with process(world, store_target, main.owners.name) as again:
        assert live.id not in again.matches
        if first == "a draw here":
            copy = await again.lookup(live.id)
            assert copy is not None
            seat = copy.session.to_act
            move = GreedyPlayer().choose(copy.session.view(seat))
            assert move.kind is not MoveKind.DISCARD, move
            assert (await again.act(copy, copy.player_ids[seat], move)).ok
        world.clock.advance(1)
        await again.check_timers()
        assert live.id in again.matches
        got = again.matches[live.id].deadline
        assert got is not None
        assert got - world.clock.now == pytest.approx(GRACE, abs=3), \
            f"{got - world.clock.now:.0f} s left after the restart ({first})"
