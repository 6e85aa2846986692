"""A DM panel edit landing after another process saved a newer panel for the seat (a turn's
warning, sent as the match was taken elsewhere) put the buttons back on the panel that process
had replaced and stripped. Its check is made by the read after the batch (``overtaken``;
``Delivery.edited``): the bot stopping before it (its delivery closed, the batch's worker
cancelled) left it unchecked, two panels offering the seat's moves. Each edit's own read, as
before the batch's, checked it."""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import (
    brought_back_editing,
    in_dms,
    read_after_batch_held,
    settle,
    warned_as,
)
from tests.processes.test_overtaken_delivery import edit_held, offering


async def test_an_edit_landing_after_a_newer_panel_is_checked_as_the_bot_stops(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, _ = await in_dms(world)
    edited = live.dm_message_ids[seat]
    assert edited is not None
    editing, land = edit_held(monkeypatch, edited)
    # The other process's read after its batch (``overtaken``'s) waits: the bot is stopping.
    reading, _ = read_after_batch_held(monkeypatch, other)
    await warned_as(monkeypatch, main, live,
                    lambda: brought_back_editing(world, other, live.id, editing))
    await settle(world, main)
    newer = main.matches[live.id].dm_message_ids[seat] if live.id in main.matches else None
    land.set()
    await asyncio.wait_for(reading.wait(), 10)
    await other.delivery.close()  # as the bot's stop does
    await settle(world, main)
    offered = offering(world, live.id, seat)
    assert edited not in offered, \
        f"the replaced panel offers the seat's moves again ({offered}, newer {newer})"
