"""By correspondence, the reminder before a turn's end is a DM of its own (``reminders._dm``),
sent beside the tick, while the match's delivery may be sending the seat's panel: the seat's
DMs closed meanwhile, both went out before either refusal was known, two requests Discord
refused where one tells the bot (each counts towards Discord's limit of invalid requests).
The soak's seed 1159 (two processes) found it."""

from __future__ import annotations

from cogs.umtali.clock import warn_before
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, flush, start_match


async def test_a_reminder_and_a_panel_to_closed_dms_make_one_refused_send(
        world: World) -> None:
    live = await start_match(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    member = world.alice if live.player_ids[seat] == world.alice.id else world.bob
    dm = member.user.dm_channel.id
    panel = live.dm_message_ids[seat]
    assert panel is not None
    # The seat's DMs close: a new message and an edit alike refused.
    for method, path in (("POST", f"/channels/{dm}/messages"),
                         ("PATCH", f"/channels/{dm}/messages/{panel}")):
        world.env.inject_error(method, path, status=403, code=50007,
                               message="Cannot send messages to this user", times=None)
    before = len(world.env.http_requests)
    live.dm_shown[seat] = None  # the panel to draw again (a move's delivery, say)
    svc.delivery.enqueue(live, Batch(hands={seat}))
    await svc.warn_if_due(live, live.deadline - warn_before(live) + 1)
    await flush(world)
    refused = [r for r in world.env.http_requests[before:]
               if r.method == "POST" and r.path == f"/channels/{dm}/messages"]
    assert live.dm_refused[seat]
    assert len(refused) == 1, f"{len(refused)} sends to the closed DMs"
