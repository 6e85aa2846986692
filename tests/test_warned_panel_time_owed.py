"""A warned turn's DM panel says the time left on every draw in the turn (``still_warned``),
counted from the deadline the turn is judged by (``judged.judged_deadline``): with time
owed to the turn (the outage's give-back whose save failed, ``ClockState.owed``), or an outage
under way (the clocks standing still: the match's shard down, the DM reaching the bot on shard
0), the player has more than the deadline in memory says. Counted from that deadline, the panel
said fewer seconds than the player had, and none once it had passed."""

from __future__ import annotations

import pytest

from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, dm_panel, flush, play, player, start_match
from tests.test_gateway_outage_faults import failing
from tests.test_warned_panel_answer import WARNED, said
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

#: How long the gateway is down (the clocks stand still).
OUTAGE = 20.0


@pytest.mark.parametrize("how", ["owed", "outage"])
async def test_a_warned_dm_panel_says_the_time_the_turn_is_judged_by(
        world: World, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None
    while (move := GreedyPlayer().choose(live.session.view(live.session.to_act))).kind not in (
            MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        await play(world, live, move)  # up to a turn that begins on the DM panel
        await flush(world)
    seat, deadline = live.session.to_act, live.deadline
    assert deadline is not None
    world.clock.now = deadline - 30
    await svc.warn_if_due(live, world.clock.now)
    await flush(world)
    assert live.warned
    if how == "owed":
        gateway_lost(svc, None)
        world.clock.advance(OUTAGE)
        failing(monkeypatch, svc.store, 1)
        await gateway_back(svc, None)
        owed = svc.clock_state.owed.get(live.id)
        assert owed is not None and owed[0] == deadline and owed[1] == pytest.approx(OUTAGE)
    else:
        gateway_lost(svc, 1)  # the match's shard: the DMs come through shard 0
        world.clock.advance(OUTAGE)
    assert live.deadline == deadline  # 10 s left by it, 30 s as the clock judges the turn
    await play(world, live, move)  # clicked on the seat's DM panel
    await flush(world)
    assert live.session.to_act == seat and live.warned
    shown = said(dm_panel(player(world, seat), live, seat))
    assert WARNED in shown
    assert f"30 {WARNED}" in shown, shown
