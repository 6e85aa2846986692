"""A seat's DMs found closed by a copy that still takes the match's channel for lost: another
process brought the match back to a channel since (``/umtali table``, the version kept), so
the database says the channel is not lost. The copy took the refusal for one with the channel
lost (the match to abandon, nobody to tell in a channel); the abandon, judged as saved, did
not happen, and the player was never told in the channel to play from the table. The soak's
seed 1200 (two processes) found it: shard 0's copy, read after shard 1 lost the thread,
warned seat 0 by DM after shard 1 had brought the match back ("DMs to seat 0 refused"), and
no "I can't send you direct messages" followed. The copy is brought up to date, and the
player told where the match is."""

from __future__ import annotations

from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import warn
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, player, start_match
from tests.processes.helpers import main_of, row, settle
from tests.test_faults_channel import _lose_thread

REFUSED = "I can't send you direct messages"


async def test_dms_closed_found_by_a_copy_that_saw_the_loss_are_told_where_it_is_back(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    # The holder finds the thread gone: the match goes on in DMs, as saved.
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost
    # The other process reads its copy now: the channel lost.
    copy = await other.lookup(live.id)
    assert copy is not None and copy.channel_lost
    # A player brings the match back to the server's channel, through the holder.
    moved = await world.alice.slash(world.channel, "umtali table")
    assert not moved.ephemeral and moved.response is not None
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["channel_id"], saved["channel_lost"]) == (world.channel.id, 0)
    # The seat to act's DMs close; the copy, taking the channel for lost still, warns the
    # seat of its turn's end there (a new DM): refused.
    seat = copy.session.to_act
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    await warn(other, copy, seat, 60)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["status"], saved["channel_lost"], bool(saved[f"dm_refused{seat}"])) == (
        "active", 0, True), "not as the refusal left it: in play, in its channel"
    user = player(world, seat).user.id
    told = [m for m in world.channel.history()
            if REFUSED in (m.content or "") and str(user) in m.content]
    assert len(told) == 1, "the player never told in the channel the match is back in"
    assert not copy.channel_lost and copy.channel_id == world.channel.id
