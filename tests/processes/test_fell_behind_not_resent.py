"""A copy's delivery in a process not holding the match, the holder having moved the match
on since that copy was read: the delivery is dropped (``Owners.fell_behind``: its holder
sends what there is to send). Nothing was sent, so nothing can have overtaken the holder's
edits; yet ``cogs.umtali.overtaken`` found the copy behind the database and showed the match
again from that process, a fresh copy's table and both panels edited a second time."""

from __future__ import annotations

import asyncio

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, settle
from umtali.players import GreedyPlayer


async def test_a_copy_dropped_as_behind_its_holder_sends_nothing(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    stale = await other.lookup(live.id)
    assert stale is not None and stale is not live
    seat = live.session.to_act
    assert (await main.act(live, live.player_ids[seat],
                           GreedyPlayer().choose(live.session.view(seat)))).ok
    await settle(world, main, other)
    since = len(world.env.http_requests)
    other.delivery.enqueue(stale, Batch(table=True, hands={0, 1}))
    # (its worker, forgotten with the copy, is waited for itself: flushing no longer does)
    await asyncio.wait_for(other.delivery._workers[live.id], 10)
    await settle(world, main, other)
    sent = [f"{r.method} {r.path}" for r in world.env.http_requests[since:]
            if r.method != "GET"]
    assert not sent, "shown again by the process not holding the match"
    assert other.matches.get(live.id) is None and not other.delivery.tracked(live.id)
