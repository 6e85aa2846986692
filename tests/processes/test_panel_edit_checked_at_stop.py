"""A DM panel edit landing after another process saved a newer panel for the seat (a turn's
warning, sent as the match was taken elsewhere) put the buttons back on the panel that process
had replaced and stripped. Its check is made by the read after the batch (``overtaken``;
``Delivery.edited``): the bot stopping before it (its delivery closed, the batch's worker
cancelled) left it unchecked, two panels offering the seat's moves. Each edit's own read, as
before the batch's, checked it."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import brought_back, main_of, settle
from tests.processes.test_overtaken_delivery import edit_held, offering
from tests.test_faults_channel import _lose_thread


async def test_an_edit_landing_after_a_newer_panel_is_checked_as_the_bot_stops(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main)
    seat, deadline = live.session.to_act, live.deadline
    assert deadline is not None
    edited = live.dm_message_ids[seat]
    assert edited is not None
    editing, land = edit_held(monkeypatch, edited)
    claim = main.owners.leases.claim_warning

    async def claimed_as_brought_back(*args: Any) -> bool:
        claimed = await claim(*args)
        await brought_back(world, other, live.id)
        await editing.wait()  # the other process's edit of the seat's panel on its way
        return claimed

    monkeypatch.setattr(main.owners.leases, "claim_warning", claimed_as_brought_back)
    # The other process's read after its batch (``overtaken``'s) waits: the bot is stopping.
    reading, stopping = asyncio.Event(), asyncio.Event()
    shown = other.owners.leases.shown

    async def read_as_stopping(*args: Any) -> Any:
        if any(frame.function == "overtaken" for frame in inspect.stack()):
            reading.set()
            await stopping.wait()
        return await shown(*args)

    monkeypatch.setattr(other.owners.leases, "shown", read_as_stopping)
    await main.warn_if_due(live, deadline - 30)
    await settle(world, main)
    newer = main.matches[live.id].dm_message_ids[seat] if live.id in main.matches else None
    land.set()
    await asyncio.wait_for(reading.wait(), 10)
    await other.delivery.close()  # as the bot's stop does
    await settle(world, main)
    offered = offering(world, live.id, seat)
    assert edited not in offered, \
        f"the replaced panel offers the seat's moves again ({offered}, newer {newer})"
