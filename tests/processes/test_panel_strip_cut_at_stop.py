"""A batch cut short by the bot stopping checks the DM panels it edited (``Delivery.
_edits_at_stop``, given 1 s): an edit landing after another process's newer panel is stripped
of its buttons then. With Discord slow to answer that strip, the stop gave it up, and nothing
but memory, gone with the process, said the panel was still to strip: the holder, taking the
match back, never looked for it, and two panels offered the seat's moves (review75). Marked
in the database before the strip, it is looked for (``stray_panels.strip_unsaved``)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import discord
import pytest

from cogs.umtali.outbox import Batch
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

ORIGINAL = discord.PartialMessage.edit

#: As the README has the stop: within ``docker stop``'s 10 s, the interactions' 6 included.
STOP = 4.0


async def test_a_strip_the_stop_cut_short_is_looked_for_by_the_next_holder(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, _ = await in_dms(world)
    edited = live.dm_message_ids[seat]
    assert edited is not None
    editing, land = edit_held(monkeypatch, edited)
    # Past the batch's own edit, Discord answers no edit of that panel (slow, not down).
    held = discord.PartialMessage.edit
    original = ORIGINAL
    stripping = asyncio.Event()

    async def slow(message: discord.PartialMessage, **fields: Any) -> Any:
        if message.id == edited and land.is_set() and fields == {"view": None}:
            stripping.set()
            await asyncio.Event().wait()
        return await held(message, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", slow)
    reading, _ = read_after_batch_held(monkeypatch, other)
    await warned_as(monkeypatch, main, live,
                    lambda: brought_back_editing(world, other, live.id, editing))
    await settle(world, main)
    land.set()
    await asyncio.wait_for(reading.wait(), 10)
    started = asyncio.get_running_loop().time()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(other.delivery.close(), 3 * STOP)  # as the bot's stop does
    took = asyncio.get_running_loop().time() - started
    assert stripping.is_set(), "the edit cut short was not checked"
    assert took < STOP, f"the stop waited {took:.1f} s on Discord"
    monkeypatch.setattr(discord.PartialMessage, "edit", original)
    # The holder's clock and claims run on for a while (the other process stopped).
    for _ in range(5):
        world.clock.advance(20)
        await main.check_timers()
        await settle(world, main)
    held_by = main.matches.get(live.id)
    assert held_by is not None, "main did not take the match back"
    main.delivery.enqueue(held_by, Batch(hands={0, 1}))
    await settle(world, main)
    offered = offering(world, live.id, seat)
    newer = held_by.dm_message_ids[seat]
    assert edited not in offered, \
        f"the panel whose strip the stop cut short offers moves still ({offered}, newer {newer})"
