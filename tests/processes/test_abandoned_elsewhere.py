"""A match abandoned by a process that does not hold it: the one holding it lets its copy go
at once, rather than running that copy's clock until its deadline.

A member whose DMs are closed, in a match whose channel is lost, changes their display through
the process that does not hold the match (a DM command reaches shard 0's): its redraw of their
DM panel is refused, and that process abandons the match (nobody can be told of their turn).
With nothing to announce (the channel is lost), the ending left the match's holder as it was:
that process went on with its copy in play, its clock running. Once the turn's own time ran
out, the clock said the reserve was running and redrew the DM panels from that copy: the other
player's panel, showing the abandoned ending, got its buttons back to play on. The process
ending a match holds it from then on, so the former holder drops its copy.
"""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from cogs.umtali.stray_panels import moves_of
from tests.discord_helpers import World, dm_panel, play, player, start_match
from tests.processes.helpers import main_of, row, settle, via
from tests.test_faults_channel import _lose_thread
from umtali.players import GreedyPlayer

CLOSED = {"status": 403, "code": 50007, "message": "Cannot send messages to this user"}


async def test_a_match_abandoned_through_another_process_is_let_go_by_its_holder(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    live = await start_match(world, time_control="normal")
    # The thread is deleted: the holder finds it when the turn's end is announced, and the
    # match goes on in DMs.
    _lose_thread(world, live)
    first = live.session.to_act
    while live.session.to_act == first:
        await play(world, live, GreedyPlayer().choose(live.session.view(first)))
    await settle(world, main, other)
    assert live.channel_lost and not live.over and main.matches.get(live.id) is live
    # The player to act closes their DMs, then changes their display through the other
    # process: its redraw of their panel is refused, and it abandons the match.
    seat = live.session.to_act
    closing = player(world, seat)
    for method in ("POST", "PATCH"):
        world.env.inject_error(method, f"/channels/{closing.user.dm_channel.id}/*",
                               times=None, **CLOSED)  # type: ignore[arg-type]
    with via(world, other):
        shown = await closing.slash(world.channel, "umtali display", pictures=False)
        assert shown.acknowledged
        await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["status"], saved["how"]) == ("finished", "abandoned")
    waiting = player(world, 1 - seat)
    panel = dm_panel(waiting, live, 1 - seat)
    assert not moves_of(panel, live.id), "the abandoned match's panel offers no move"
    # The holder has not renewed its leases since: its clock runs on to the turn's own
    # time's end, where the reserve starts to run.
    assert live.deadline is not None
    own_end = live.deadline - live.reserves[seat]
    main.owners._renewed_at = own_end + LATE
    await main.check_timers(now=own_end + LATE + 1)
    await settle(world, main, other)
    panel = dm_panel(waiting, live, 1 - seat)
    assert not moves_of(panel, live.id), "a copy in play redrew the abandoned match's panel"
    # At its next renewal at the latest, the holder has let its copy go.
    await main.check_timers(now=own_end + LATE + 1 + RENEW_EVERY)
    await settle(world, main, other)
    assert not main.tracked(live.id)
    assert not other.tracked(live.id)
