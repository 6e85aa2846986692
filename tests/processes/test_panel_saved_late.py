"""The process holding a match sends a seat a new DM panel, and its id waits on a busy database.
Meanwhile the seat's turn is played through another process (typed, and the My hand panel),
which holds the match from then on: its copy, loaded with ``dm_sending`` set and the older
panel's id, edits that older panel and takes the buttons off the new one
(``stray_panels.strip_unsaved``).
The first process's save then lands: the database names the new panel, stripped, while the
holder edits the older one. A click on that one reaching a process that does not hold the
match is answered "replaced by a newer one", and its buttons go too. The id is now saved only
while the match is at the version the panel shows; else that panel's buttons go instead.
"""

from __future__ import annotations

import pytest

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, player
from tests.processes.helpers import (
    act_via,
    greedy_via,
    main_of,
    panel_saved_slowly,
    row,
    settle,
    via,
)
from tests.test_left_orphan_panel import _drawing
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_panel_saved_late_after_its_turn_was_played_elsewhere_names_no_stripped_panel(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    actor = player(world, seat)
    saving, sending = await panel_saved_slowly(monkeypatch, main, live, seat)
    # The seat's turn, played through the other process, not on the new panel.
    fresh = await other.lookup(live.id)
    assert fresh is not None
    move = GreedyPlayer().choose(fresh.session.view(seat))
    while move.kind is not MoveKind.DISCARD:
        with via(world, other):
            assert (await other.act(fresh, fresh.player_ids[seat], move)).ok
        move = GreedyPlayer().choose(fresh.session.view(seat))
    await act_via(world, other, live.id, move)
    await settle(world, other)
    saving.set()
    await sending
    await settle(world, main, other)
    # The opponent's turn, through the other process; then the seat's draw, on the panel
    # offering it, reaching the first process.
    while (await greedy_via(world, other, live.id)).kind is not MoveKind.DISCARD:
        await settle(world, main, other)
    await settle(world, main, other)
    saved = await row(world, live.id)
    draw = f"umtali:m:{live.id}:{saved['version']}:draw"
    [panel] = [m for m in actor.user.dm_channel.history() if draw in custom_ids(m)]
    assert panel.id == saved[f"dm{seat}_message_id"]
    with via(world, main):
        r = await actor.user.click(panel, custom_id=draw)
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
