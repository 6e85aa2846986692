"""A move's delivery reads the match as saved twice, however many DM panels it edits: before
it sends (``Owners.fell_behind``) and after (``overtaken``), the read that also finds a panel
edited here as another process saved a newer one (``in_dms.replaced_meanwhile``). A read
after each panel's edit doubled the reads of every move, in one process too."""

from __future__ import annotations

from tests.discord_helpers import World, flush, play, start_match
from umtali.players import GreedyPlayer

SHOWN = "SELECT owner, version, status, channel_id"  # data.leases.Leases.shown


async def test_a_moves_delivery_reads_the_match_as_saved_twice(world: World) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None
    await flush(world)
    counted: list[int] = []
    while len(counted) < 4:
        move = GreedyPlayer().choose(live.session.view(live.session.to_act))
        statements: list[str] = []
        await svc.store.db.conn.set_trace_callback(statements.append)
        try:
            await play(world, live, move)
            await flush(world)
        finally:
            await svc.store.db.conn.set_trace_callback(None)  # type: ignore[arg-type]
        counted.append(sum(s.startswith(SHOWN) for s in statements))
    assert max(counted) <= 2, counted
