"""A DM panel edit landing after another process saved a newer panel for the seat (a turn's
warning, sent as the match was taken elsewhere) takes the newer panel as the seat's
(``stray_panels.replaced_after_edit``). Taken as showing the match already when the match as saved
was at the copy's version, it was never drawn again here: that panel was drawn by the other
process's copy, as it had the match then. The table brought back to a channel, the panel
still carried the table as while the match was played in DMs; the match ended meanwhile (a
resignation, which keeps the version), it went on offering the turn's moves."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player
from tests.processes.helpers import brought_back_editing, in_dms, row, settle, warned_as
from tests.processes.test_overtaken_delivery import edit_held, offering
from tests.processes.test_warned_as_brought_back_elsewhere import warned_in_panel


async def test_the_warnings_panel_taken_as_the_table_came_back_no_longer_carries_it(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, _ = await in_dms(world)
    editing, land = edit_held(monkeypatch, live.dm_message_ids[seat] or 0)
    await warned_as(monkeypatch, main, live,
                    lambda: brought_back_editing(world, other, live.id, editing))
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
    live, main, seat, deadline = await in_dms(world)
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
