"""The answer to a click on the DM panel is drawn off the event loop; if the match moves on
while it is drawn (the computer's turn, delivered meanwhile), that answer shows the older
position, and the DM panel is edited again after it: it never stays behind. SimCord."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.umtali.showing as showing
from tests.discord_helpers import World, dm_panel, flush, player, start_practice
from tests.test_faults_timers import to_turn_end
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_dm_answer_overtaken_by_the_computer_is_followed_by_the_newer_panel(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_practice(world)
    svc = world.bot.matches
    assert svc is not None and live.computer_seat is not None
    seat = 1 - live.computer_seat
    await to_turn_end(world, live)
    assert live.session.to_act == seat
    move = GreedyPlayer().choose(live.session.view(seat))
    assert move.kind is MoveKind.DISCARD
    real = showing.Shown.drawn
    overtaken: list[int] = []

    async def late(self: showing.Shown) -> showing.Shown:
        if not overtaken and live.session.to_act != seat:
            # The discard is saved and the computer's turn under way: let it end and be
            # delivered before this answer is drawn.
            overtaken.append(live.version)
            await svc.computer_idle()
            await svc.flush()
        return await real(self)

    monkeypatch.setattr(showing.Shown, "drawn", late)
    actor = player(world, seat)
    dm = dm_panel(actor, live, seat)
    clicked = await actor.user.select(dm, [str(move)],
                                      custom_id=f"umtali:m:{live.id}:{live.version}:discard")
    assert clicked.acknowledged
    await flush(world)
    assert overtaken and live.version > overtaken[0], "the computer did not move meanwhile"
    # The DM panel shows the position now: its buttons carry the current version.
    shown = dm_panel(actor, live, seat)
    ids: list[Any] = [c.custom_id for row in shown.components for c in row.children]
    assert any(f":{live.version}:" in str(i) for i in ids), (live.version, ids)
    assert live.dm_shown[seat] == live.version
