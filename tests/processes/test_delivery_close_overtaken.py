"""The bot stopping while one match's delivery waits to be sent and another's checks whether
it was overtaken (``cogs.umtali.overtaken``, reading the database): that check, going on after
the stop began, took its worker out of ``Delivery._workers`` as ``Delivery.close`` went
through them; the close failed (dictionary changed size during iteration), and the service's
close with it: the clocks' note and the leases' release never written."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, cut, start_match
from tests.processes.helpers import main_of, settle
from umtali.players import GreedyPlayer


async def test_a_stop_as_a_delivery_checks_whether_it_was_overtaken_closes(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    first = await start_match(world)
    main = main_of(world)
    offered = await world.carol.slash(world.channel, "umtali practice")
    assert offered.acknowledged
    await cut(world, offered, actor=world.carol)
    [second] = [m for m in main.matches.values() if m is not first]
    await settle(world, main)
    # A copy of the second match from before its next move: its delivery is overtaken.
    row = await main.store.match(second.id)
    assert row is not None
    stale = LiveMatch.from_row(row)
    seat = second.session.to_act
    assert seat != second.computer_seat
    assert (await main.act(second, second.player_ids[seat],
                           GreedyPlayer().choose(second.session.view(seat)))).ok
    await settle(world, main)
    # Let go here (as if another process took it): the stale copy is one shown here, as
    # saved. (A copy held here would send what is queued for the match in its place.)
    main.owners.drop(second)
    # The first match's table is drawn slowly: the stop waits for that worker first.
    drawing, late = main.table_message, asyncio.Event()

    def table_message(copy: Any) -> Any:
        shown = drawing(copy)
        if copy.id != first.id or late.is_set():
            return shown
        draw = shown.drawn

        async def drawn() -> Any:
            await late.wait()
            return await draw()

        shown.drawn = drawn  # type: ignore[method-assign]
        return shown

    monkeypatch.setattr(main, "table_message", table_message)
    looking, lookup = asyncio.Event(), main.lookup

    async def slow_lookup(match_id: int) -> Any:
        found = await lookup(match_id)
        if match_id == second.id and not main.delivery._closed:
            looking.set()
            while not main.delivery._closed:  # its answer comes back as the bot stops
                await asyncio.sleep(0)
        return found

    monkeypatch.setattr(main, "lookup", slow_lookup)
    main.delivery.enqueue(first, Batch(table=True))
    main.delivery.enqueue(stale, Batch(table=True))
    await asyncio.wait_for(looking.wait(), 10)
    assert list(main.delivery._workers)[:2] == [first.id, second.id]
    await main.delivery.close()
    late.set()
