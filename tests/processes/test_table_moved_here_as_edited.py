"""``/umtali table`` through the process holding the match while its delivery's edit of the
table is on its way (held up by a rate limit, the network): the command saves the new table,
its copy updated in place, and retires the one it replaced; the edit, landing after, put the
buttons back on the replaced table. The delivery's check after it (``overtaken``) found the
match as saved where its own copy has it, and nothing took them off again: two tables offered
"My hand". (Through the other process, the copy sending is dropped and a fresh one retires
it again: ``test_overtaken_delivery``.)"""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle, table_moved
from tests.processes.test_overtaken_delivery import edit_held
from tests.processes.test_table_moved_as_read import tables_offering
from umtali.players import GreedyPlayer


async def test_a_table_moved_here_as_its_edit_was_on_its_way_offers_nothing(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    old = live.table_message_id
    assert old is not None
    editing, land = edit_held(monkeypatch, old)
    main.delivery.enqueue(live, Batch(table=True))
    await asyncio.wait_for(editing.wait(), 10)
    sending = main.delivery._workers[live.id]
    replaced, posted = await table_moved(world, main, live)
    assert replaced == old
    land.set()
    await asyncio.wait_for(sending, 10)
    await settle(world, main, other)
    assert (await row(world, live.id))["table_message_id"] == posted == live.table_message_id
    assert tables_offering(world, live) == [posted], "the replaced table offers the hand"


async def test_a_table_moved_elsewhere_then_taken_back_by_a_move_here_offers_nothing(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder's edit of its table on its way as ``/umtali table`` through the other
    process replaced and retired it, and a move through the holder's copy (its save taking
    the new table, and the match back) before the edit landed: the copy is the holder's
    again, so the check after the delivery found nothing to show again, and the replaced
    table kept the buttons the edit put back."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    old = live.table_message_id
    assert old is not None
    editing, land = edit_held(monkeypatch, old)
    main.delivery.enqueue(live, Batch(table=True))
    await asyncio.wait_for(editing.wait(), 10)
    sending = main.delivery._workers[live.id]
    moving = await other.lookup(live.id)
    assert moving is not None
    replaced, posted = await table_moved(world, other, moving)
    assert replaced == old
    seat = live.session.to_act
    assert (await main.act(live, live.player_ids[seat],
                           GreedyPlayer().choose(live.session.view(seat)))).ok
    assert live.table_message_id == posted and main.matches.get(live.id) is live
    land.set()
    await asyncio.wait_for(sending, 10)
    await settle(world, main, other)
    assert (await row(world, live.id))["table_message_id"] == posted
    assert tables_offering(world, live) == [posted], "the replaced table offers the hand"
