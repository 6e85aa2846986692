"""Played in DMs (the channel lost), the holder claimed a turn's warning (a new DM panel, which
notifies: a forfeit to come) as the other player brought the table back to a channel through
the other process (``/umtali table``: the match taken there at the same version, the turn
unplayed, the warning claimed already). The warning's check of its copy found it behind and
sent nothing, and the new holder, its copy read with the warning claimed, never warns: the
player was forfeited unwarned. Behind only in where the table is, the warning is still owed
by the process that claimed it, as a turn's new panel is (``Owners.played_past``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player
from tests.processes.helpers import (
    brought_back,
    brought_back_editing,
    in_dms,
    row,
    settle,
    warned_as,
)
from tests.processes.test_overtaken_delivery import edit_held, offering

WARNED = "seconds left for your turn"


def seen(world: World, seat: int) -> list[Any]:
    """The seat's player's DM messages, and the server channel's."""
    return [*player(world, seat).user.dm_channel.history(), *world.channel.history()]


def warnings(world: World, seat: int, known: set[int]) -> int:
    """The warnings the seat's player was sent: the messages new since ``known`` (in their
    DMs, or in the server's channel) that say it. (An older panel drawn again says it too
    while it stands, ``still_warned``: not a warning sent.)"""
    return sum(WARNED in said(m) for m in seen(world, seat) if m.id not in known)


def said(message: Any) -> str:
    return " ".join([message.content or "", *(e.description or "" for e in message.embeds)])


def warned_in_panel(world: World, match_id: int, seat: int) -> bool:
    """Whether the seat's one panel offering its moves says the warning."""
    [panel] = [m for m in player(world, seat).user.dm_channel.history()
               if m.id in offering(world, match_id, seat)]
    return WARNED in said(panel)


async def test_a_warning_claimed_as_the_table_is_brought_back_elsewhere_is_sent(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, deadline = await in_dms(world)
    known = {m.id for m in seen(world, seat)}
    copies: list[LiveMatch] = []

    async def brought_back_here() -> None:
        # Seat 0 brings the table to the server's channel through the other process, as the
        # warning's claim returns.
        copies.append(await brought_back(world, other, live.id))

    await warned_as(monkeypatch, main, live, brought_back_here)
    await settle(world, main, other)
    [copy] = copies
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert copy.warned and not copy.over and copy.session.to_act == seat
    # The new holder's clock goes through the warning's time: its copy has it claimed.
    await other.check_timers(now=deadline - 29)
    await settle(world, main, other)
    assert warnings(world, seat, known) == 1, "the player to act was never warned"
    # One panel offers the turn's moves: the seat's as saved.
    assert offering(world, live.id, seat) == [(await row(world, live.id))[f"dm{seat}_message_id"]]
    assert warned_in_panel(world, live.id, seat)


async def test_the_panel_edited_as_the_warning_replaced_it_offers_nothing(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other process, brought the table, edits the seat's panel as it read it (its check
    against the database made as its delivery began); the edit still on its way, the warning's
    new panel is saved as the seat's and takes the buttons off the one it replaced: the edit,
    landing after, put them back. Two panels offered the turn's moves."""
    live, main, seat, _ = await in_dms(world)
    known = {m.id for m in seen(world, seat)}
    editing, land = edit_held(monkeypatch, live.dm_message_ids[seat] or 0)
    await warned_as(monkeypatch, main, live, lambda: brought_back_editing(world, other, live.id,
                                                                          editing))
    await settle(world, main)
    land.set()
    await settle(world, main, other)
    assert offering(world, live.id, seat) == [(await row(world, live.id))[f"dm{seat}_message_id"]]
    assert warnings(world, seat, known) == 1
    assert warned_in_panel(world, live.id, seat)


async def test_the_warning_survives_the_other_process_taking_its_panel(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The warning's new panel saved before the other process's delivery (the table brought
    back) checks its copy: that delivery takes the newer panel as the seat's and edits it."""
    live, main, seat, _ = await in_dms(world)
    known = {m.id for m in seen(world, seat)}
    checked, go = other.owners.fell_behind, asyncio.Event()

    async def held(copy: LiveMatch) -> bool:
        await go.wait()
        return await checked(copy)

    monkeypatch.setattr(other.owners, "fell_behind", held)
    await warned_as(monkeypatch, main, live, lambda: brought_back(world, other, live.id))
    await settle(world, main)
    go.set()
    await settle(world, main, other)
    assert offering(world, live.id, seat) == [(await row(world, live.id))[f"dm{seat}_message_id"]]
    assert warnings(world, seat, known) == 1
    assert warned_in_panel(world, live.id, seat)
