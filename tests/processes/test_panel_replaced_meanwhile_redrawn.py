"""A DM panel edit landing after another process saved a newer panel for the seat (a turn's
warning, sent as the match was taken elsewhere) takes the newer panel as the seat's
(``in_dms._replaced_meanwhile``). Taken as showing the match already when the match as saved
was at the copy's version, it was never drawn again here: that panel was drawn by the other
process's copy, as it had the match then. The table brought back to a channel, the panel
still carried the table as while the match was played in DMs; the match ended meanwhile (a
resignation, which keeps the version), it went on offering the turn's moves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, start_match
from tests.processes.helpers import brought_back, main_of, row, settle
from tests.processes.test_overtaken_delivery import edit_held, offering
from tests.processes.test_warned_as_brought_back_elsewhere import warned_in_panel
from tests.test_faults_channel import _lose_thread


async def test_the_warnings_panel_taken_as_the_table_came_back_no_longer_carries_it(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main)
    seat, deadline = live.session.to_act, live.deadline
    assert deadline is not None
    editing, land = edit_held(monkeypatch, live.dm_message_ids[seat] or 0)
    claim = main.owners.leases.claim_warning

    async def claimed_as_brought_back(*args: Any) -> bool:
        claimed = await claim(*args)
        await brought_back(world, other, live.id)
        await editing.wait()  # the other process's edit of the seat's panel on its way
        return claimed

    monkeypatch.setattr(main.owners.leases, "claim_warning", claimed_as_brought_back)
    await main.warn_if_due(live, deadline - 30)
    await settle(world, main)
    land.set()
    await settle(world, main, other)
    [panel] = [m for m in player(world, seat).user.dm_channel.history()
               if m.id in offering(world, live.id, seat)]
    fresh = await other.lookup(live.id)
    assert fresh is not None and not fresh.channel_lost
    # The hand alone: the table is in the channel again.
    assert len(panel.embeds) == len(other.dm_panel(fresh, seat).embeds) == 1, \
        "the seat's panel still carries the table"
    assert warned_in_panel(world, live.id, seat)


async def test_the_warnings_panel_taken_as_the_match_ended_offers_nothing(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder's warning checked its copy (in play) and was sending its new panel as the
    opponent resigned through the other process, whose delivery was editing the seat's panel
    it knew: saved at the match's version, the warning's panel was taken there as showing the
    ended match."""
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main)
    seat, deadline = live.session.to_act, live.deadline
    assert deadline is not None
    editing, land = edit_held(monkeypatch, live.dm_message_ids[seat] or 0)
    mark = main.store.set_dm_sending
    resigned: list[bool] = []

    async def marked_as_resigned(*args: Any, **kwargs: Any) -> Any:
        if not resigned:
            # The warning's panel about to go out: the opponent resigns elsewhere, and that
            # process's edit of the seat's panel is on its way.
            copy = await other.lookup(live.id)
            assert copy is not None
            resigned.append(await other.resign(copy, 1 - seat))
            await asyncio.wait_for(editing.wait(), 10)
        return await mark(*args, **kwargs)

    monkeypatch.setattr(main.store, "set_dm_sending", marked_as_resigned)
    await main.warn_if_due(live, deadline - 30)
    await settle(world, main)
    land.set()
    await settle(world, main, other)
    assert resigned == [True]
    assert (await row(world, live.id))["status"] == "finished"
    assert offering(world, live.id, seat) == [], "a panel offers moves of a match over"
