"""``/umtali table`` through the holder itself while its delivery reads where the match is
shown (``Owners.fell_behind``): the read, made before the table's move was saved, comes back
after the move's save and the copy's update. Taken as it was read, it put the copy back on
the table just replaced: the delivery edited that one, its buttons back on after its
retirement, and the live table was left a move behind."""

from __future__ import annotations

from typing import Any

from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle, table_moved
from tests.processes.test_table_moved_as_read import tables_offering


async def test_a_table_moved_here_as_the_holders_delivery_read_it_stays_moved(
        world: World, monkeypatch: Any) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    leases = main.owners.leases
    shown = leases.shown
    replaced: list[int] = []

    async def read_as_the_table_moved(match_id: int) -> Any:
        saved = await shown(match_id)
        if not replaced:
            # The answer comes back after the move.
            replaced.append((await table_moved(world, main, live))[0])
        return saved

    monkeypatch.setattr(leases, "shown", read_as_the_table_moved)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main)
    saved = await row(world, live.id)
    assert replaced and saved["table_message_id"] != replaced[0]
    assert live.table_message_id == saved["table_message_id"], "back on the replaced table"
    assert tables_offering(world, live) == [saved["table_message_id"]]
