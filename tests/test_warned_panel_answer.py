"""A warned turn's DM panel says the time left on every draw in the turn (``still_warned``):
a move within the turn made on the DM panel itself is answered by an edit of that panel (the
delivery leaves it alone), and that answer was drawn without the warning. The same draw made
anywhere else (``/umtali play``, the table's hand) had the delivery's edit say it."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, dm_panel, flush, play, player, start_match
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

WARNED = "seconds left for your turn"


def said(message: Any) -> str:
    return " ".join([message.content or "", *(e.description or "" for e in message.embeds)])


async def test_a_move_on_the_warned_seats_dm_panel_keeps_the_warning_there(world: World) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None
    while (move := GreedyPlayer().choose(live.session.view(live.session.to_act))).kind not in (
            MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        await play(world, live, move)  # up to a turn that begins on the DM panel
        await flush(world)
    seat = live.session.to_act
    assert live.deadline is not None
    await svc.warn_if_due(live, live.deadline - 30)
    await flush(world)
    assert live.warned and not live.channel_lost
    await play(world, live, move)  # clicked on the seat's DM panel
    await flush(world)
    assert live.session.to_act == seat and live.warned
    panel = dm_panel(player(world, seat), live, seat)
    assert WARNED in said(panel), "the DM panel's answer took the warning away"
