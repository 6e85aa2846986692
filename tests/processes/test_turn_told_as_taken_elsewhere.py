"""By correspondence, the holder's delivery of a turn's start was held up on a DM panel while
the other player brought the table to a new message through the other process (``/umtali
table``: the match taken there, the turn unplayed, the table alone sent there) and a renewal
here dropped the copy. Its delivery went on, and its turn's DM was not told, the copy no
longer held; nor did the new holder tell it, its delivery sending no hands: the player was
never told their turn had started."""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, start_match
from tests.processes.helpers import main_of, row, settle, table_moved
from tests.processes.test_overtaken_delivery import edit_held
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer

TOLD = "Your turn in the Umtali match"


async def test_a_turn_whose_delivery_is_taken_over_by_a_table_brought_elsewhere_is_told(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    await settle(world, main)
    await to_turn_end(world, live)
    await settle(world, main)
    mover = live.session.to_act
    waiting = 1 - mover
    dms = player(world, waiting).user.dm_channel

    def told() -> int:
        return sum(TOLD in (m.content or "") for m in dms.history())

    before = told()
    first = live.dm_message_ids[0]
    assert first is not None
    editing, land = edit_held(monkeypatch, first)
    # The turn ends through the holder: the waiting player's turn starts, to be told.
    assert (await main.act(live, live.player_ids[mover],
                           GreedyPlayer().choose(live.session.view(mover)))).ok
    assert live.session.to_act == waiting
    await asyncio.wait_for(editing.wait(), 10)
    sending = main.delivery._workers[live.id]
    # Meanwhile ``/umtali table`` through the other process: the table alone is sent there.
    copy = await other.lookup(live.id)
    assert copy is not None
    await table_moved(world, other, copy)
    other.delivery.enqueue(copy, Batch(table=True))
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    # This process's next renewal finds the match held elsewhere: its copy is dropped.
    world.clock.advance(6)
    await main.owners.renew(world.clock())
    assert live.id not in main.matches
    land.set()
    await asyncio.wait_for(sending, 10)
    await settle(world, main, other)
    assert copy.session.to_act == waiting and not copy.over
    assert told() == before + 1, "the waiting player was never told their turn started"
