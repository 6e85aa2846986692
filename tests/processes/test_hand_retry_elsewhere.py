"""A hand's DM panel tried again by a process that no longer holds the match: the next turn was
played through another process meanwhile, which sent the panel as it is now. The retry, made
from a copy turns behind, must not put that earlier position back over it (docs/processes.md).
"""

from __future__ import annotations

import pytest

import cogs.umtali.retries
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, play_out, player, start_match
from tests.processes.helpers import greedy_via, main_of, row, settle
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import to_turn_end
from umtali.moves import MoveKind

#: Seconds before a first retry: none fires by itself while SimCord settles.
RETRY = 60.0


@pytest.mark.usefixtures("server_errors")
async def test_a_hand_tried_again_after_the_match_moved_on_elsewhere_shows_it_as_it_is(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cogs.umtali.retries, "RETRY_FIRST", RETRY)
    live = await start_match(world)
    main = main_of(world)
    seat = live.session.to_act
    await to_turn_end(world, live)
    await settle(world, main)
    dm, panel = live.dm_channel_ids[seat], live.dm_message_ids[seat]
    # Discord fails the edit of the mover's panel at their turn's end once: tried again in a
    # minute by the process holding the match ...
    world.env.inject_error("PATCH", f"/channels/{dm}/messages/{panel}", status=503,
                           message="Unavailable", times=1)
    await play_out(world, live, moves=1)
    await settle(world, main)
    assert live.session.to_act != seat and main.delivery._retrying
    assert (await row(world, live.id))["resend"] == f'{{"announce":false,"table":false,' \
        f'"hands":[{seat}],"question":false}}'  # saved with the failure
    # ... while the opponent's whole turn is played through the other process, which holds
    # the match from then on and sends both hands: the mover's turn again, with its buttons.
    while (await greedy_via(world, other, live.id)).kind is not MoveKind.DISCARD:
        await settle(world, main, other)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2"
    assert saved["resend"] == ""  # sent by the process that took the match, which cleared it
    draw = f"umtali:m:{live.id}:{saved['version']}:draw"
    assert draw in _panel(world, seat, saved[f"dm{seat}_message_id"])
    await world.env.advance_time(RETRY + 1)
    await settle(world, main, other)
    assert draw in _panel(world, seat, saved[f"dm{seat}_message_id"])
    assert (await row(world, live.id))["resend"] == ""  # the old holder clears nothing of p2's


def _panel(world: World, seat: int, message_id: int) -> list[str]:
    """The custom ids of the seat's DM panel."""
    [shown] = [m for m in player(world, seat).user.dm_channel.history() if m.id == message_id]
    return custom_ids(shown)
