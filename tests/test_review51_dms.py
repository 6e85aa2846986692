"""review51: the channel's notice that a player's DMs refused the bot, failing for now (a 5xx),
was never posted: the retry found the seat refused already and sent nothing, and the tries once
a hand since say nothing (review43), so the player was never told to use My hand."""

from __future__ import annotations

import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import turn_of
from tests.discord_helpers import World, flush, play_out, start_match, thread_of
from tests.test_dms_again import REFUSED, _close_dms, _next_hand, _notices, _open_dms
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)

#: A retry pending (the 5xx) has its save waited for as time advances: slow on a busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.mark.usefixtures("server_errors")
async def test_a_refusal_told_in_the_channel_failing_for_now_is_told_when_it_passes(
        world: World) -> None:
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    svc = world.bot.matches
    assert bob is not None and svc is not None and not live.dm_refused[bob]
    thread = thread_of(world, live)
    # Bob closes his DMs: the next edit of his panel, then the new one, are refused; the
    # channel's next post, the notice, fails for now.
    _close_dms(world)
    dm = world.bob.user.dm_channel
    world.env.inject_error("PATCH", f"/channels/{dm.id}/messages/*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=503, times=1)
    live.dm_shown[bob] = -1  # his panel to be brought up to date, as by a move
    svc.delivery.enqueue(live, Batch(hands={bob}))
    await flush(world)
    assert live.dm_refused[bob] and _notices(world, live) == 0
    # Bob's hand delivered again (the retry, a move): the notice, owed, is posted, once.
    for _ in range(2):
        svc.delivery.enqueue(live, Batch(hands={bob}))
        await flush(world)
    await play_out(world, live, moves=2)
    assert not live.over
    assert _notices(world, live) == 1, [m.content for m in thread.history()
                                        if REFUSED in m.content]


@pytest.mark.usefixtures("server_errors")
async def test_dms_opened_again_whose_first_panel_fails_for_now_still_say_so(
        world: World) -> None:
    # Bob's DMs refused from the start; he opens them, and the once-a-hand try fails for now
    # (a 503): its retry, in the same hand, is still the new panel saying his hand comes there
    # again, not a plain one (an edit of an old panel, where he had one, notifying nothing).
    _close_dms(world)
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    svc = world.bot.matches
    assert bob is not None and svc is not None and live.dm_refused[bob]
    _open_dms(world)
    dm = world.bob.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503, times=1)
    await _next_hand(world, live)
    hand = turn_of(live)[:2]
    svc.delivery.enqueue(live, Batch(hands={bob}))  # the retry
    await flush(world)
    assert not live.over and not live.dm_refused[bob] and turn_of(live)[:2] == hand
    panel = dm.last_message
    assert panel is not None and live.dm_message_ids[bob] == panel.id
    assert "I can send you direct messages again" in (panel.content or "") + "".join(
        e.description or "" for e in panel.embeds)
