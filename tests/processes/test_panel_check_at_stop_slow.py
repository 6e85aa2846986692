"""A batch cut short by the bot stopping checks the DM panels it edited (``Delivery.
_edits_at_stop``): an edit landing after another process's newer panel is stripped of its
buttons then, a Discord call during the stop. With Discord slow to answer it (a call is given
up only after 30 s), the stop waited for it, past the 10 s a ``docker stop`` allows before it
kills the bot: its database never closed, its last heartbeat and its leases' release never
saved."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from typing import Any

import discord
import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import brought_back, main_of, settle
from tests.processes.test_overtaken_delivery import edit_held
from tests.test_faults_channel import _lose_thread

#: As the README has the stop: within ``docker stop``'s 10 s, the interactions' 6 included.
STOP = 4.0


async def test_a_stop_does_not_wait_on_discord_for_the_check_of_an_edit_cut_short(
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
    # Past the batch's own edit, Discord answers no edit of that panel (slow, not down).
    held = discord.PartialMessage.edit
    stripping = asyncio.Event()

    async def slow(message: discord.PartialMessage, **fields: Any) -> Any:
        if message.id == edited and land.is_set() and fields == {"view": None}:
            stripping.set()
            await asyncio.Event().wait()
        return await held(message, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", slow)
    claim = main.owners.leases.claim_warning

    async def claimed_as_brought_back(*args: Any) -> bool:
        claimed = await claim(*args)
        await brought_back(world, other, live.id)
        await editing.wait()
        return claimed

    monkeypatch.setattr(main.owners.leases, "claim_warning", claimed_as_brought_back)
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
    land.set()
    await asyncio.wait_for(reading.wait(), 10)
    started = asyncio.get_running_loop().time()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(other.delivery.close(), 3 * STOP)  # as the bot's stop does
    took = asyncio.get_running_loop().time() - started
    assert stripping.is_set(), "the edit cut short was not checked"
    assert took < STOP, f"the stop waited {took:.1f} s on Discord"
