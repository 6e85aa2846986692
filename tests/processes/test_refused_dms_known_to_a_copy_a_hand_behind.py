"""A copy of a match read in an earlier hand (a practice's review of that hand, its thinking
slow, the hands played fast meanwhile) sends nothing to DMs another copy of its process found
refusing the bot in a later hand: the refusal is newer than anything that copy read. Only a
copy in the very hand was taken to know it (``refused_here.known``), so the review went out
and was refused once more: the soak's seed 2268 (PostgreSQL, two processes), a practice's DMs
refused three times in one hand, the third a review of hand 1 sent by a copy read at version
31 after the panel of hand 4 was refused."""

from __future__ import annotations

from cogs.umtali.outbox import Batch
from cogs.umtali.refused_here import hand_in_play
from cogs.umtali.reminders import _dm
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, play, player, start_match
from tests.processes.helpers import main_of, settle
from umtali.players import GreedyPlayer


async def test_a_copy_a_hand_behind_sends_nothing_to_dms_found_refused_since(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    # A copy read now by the other process, in the first hand (kept by its slow review).
    behind = await other.lookup(live.id)
    assert behind is not None
    first = hand_in_play(behind)
    # The hand played out through the holder, the next one dealt.
    while hand_in_play(live) == first and not live.over:
        move = GreedyPlayer().choose(live.session.view(live.session.to_act))
        await play(world, live, move)
    await settle(world, main)
    assert not live.over and hand_in_play(live) > first
    seat = live.session.to_act
    # The seat's DMs close; a copy of the later hand in the other process finds it out.
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    finder = await other.lookup(live.id)
    assert finder is not None and finder is not behind and hand_in_play(finder) > first
    finder.dm_shown[seat] = None
    other.delivery.enqueue(finder, Batch(hands={seat}))
    await settle(world, other)
    assert finder.dm_refused[seat]
    before = len(world.env.http_requests)
    # The copy a hand behind sends its DM (the review, as any new DM, through ``to_dms``).
    assert await _dm(other, behind, seat, "Review of hand 1", "review") is False
    again = [f"{r.method} {r.path}" for r in world.env.http_requests[before:]
             if r.path.startswith(f"/channels/{dm}/")]
    assert again == [], f"sent again to DMs the process knew refused: {again}"
    assert behind.dm_refused[seat]
