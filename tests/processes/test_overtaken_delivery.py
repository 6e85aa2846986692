"""Two processes each showing a move of the same match, the earlier move's edit of the table
reaching Discord after the later move's (drawn slowly, or held up by a rate limit): the table
showed the earlier position until the next move, the database one move further on."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, player, start_match, thread_of
from tests.processes.helpers import brought_back, main_of, row, settle, table_moved
from tests.processes.test_table_moved_as_read import tables_offering
from tests.test_faults_channel import _lose_thread
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def table_fields(world: World, svc: MatchService, match_id: int) -> tuple[Any, Any]:
    """What the live table shows and what it should show, as saved: its fields, each."""
    fresh = await svc.lookup(match_id)
    assert fresh is not None
    drawn = await svc.table_message(fresh).drawn()
    [table] = [m for m in thread_of(world, fresh).history() if m.id == fresh.table_message_id]
    return ([(f.name, f.value) for f in table.embeds[0].fields],
            [(f.name, f.value) for f in drawn.embeds[0].fields])


def offering(world: World, match_id: int, seat: int) -> list[int]:
    """The seat's DM messages that offer a move of the match."""
    prefix = f"umtali:m:{match_id}:"
    return [m.id for m in player(world, seat).user.dm_channel.history()
            if any(c.startswith(prefix) and c.split(":")[3].isdigit() for c in custom_ids(m))]


def edit_held(monkeypatch: pytest.MonkeyPatch,
              message_id: int) -> tuple[asyncio.Event, asyncio.Event]:
    """The first edit of the DM message ``message_id`` stays on its way until the second
    event returned is set; the first is set as it waits."""
    editing, land = asyncio.Event(), asyncio.Event()
    edit = discord.PartialMessage.edit

    async def held(message: discord.PartialMessage, **fields: Any) -> Any:
        if message.id == message_id and not editing.is_set():
            editing.set()
            await land.wait()
        return await edit(message, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", held)
    return editing, land


async def in_dms_at_seat_0s_turn_end(world: World) -> LiveMatch:
    """A match played in DMs (its channel lost), seat 0 to act with only its discard left."""
    live = await start_match(world)
    main = main_of(world)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main)
    assert live.channel_lost
    while live.session.to_act != 0:
        await main.act(live, live.player_ids[live.session.to_act],
                       GreedyPlayer().choose(live.session.view(live.session.to_act)))
    await to_turn_end(world, live)
    await settle(world, main)
    return live


def drawn_slowly(monkeypatch: pytest.MonkeyPatch, svc: MatchService,
                 drawing: str) -> tuple[asyncio.Event, asyncio.Event]:
    """``svc`` draws what its method ``drawing`` makes (the table, a DM panel) slowly, until
    the second event returned is set; the first is set as a drawing waits."""
    draw_of = getattr(svc, drawing)
    slow, late = asyncio.Event(), asyncio.Event()

    def slowly(*args: Any) -> Any:
        shown = draw_of(*args)
        if late.is_set():
            return shown
        draw = shown.drawn

        async def drawn() -> Any:
            slow.set()
            await late.wait()
            return await draw()

        shown.drawn = drawn
        return shown

    monkeypatch.setattr(svc, drawing, slowly)
    return slow, late


async def test_a_table_edit_overtaken_by_a_later_moves_is_shown_again_as_saved(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main)
    version = live.version
    # The other process draws its table slowly: its edit reaches Discord last.
    slow, late = drawn_slowly(monkeypatch, other, "table_message")
    moves = []
    for svc in (other, main):
        # Each process is reached by the player to act for a whole turn (the match's service
        # directly: a member's click waits for everything under way, the slow drawing too).
        copy = await svc.lookup(live.id)
        assert copy is not None
        seat = copy.session.to_act
        while not copy.over and copy.session.to_act == seat:
            moves.append(GreedyPlayer().choose(copy.session.view(seat)))
            assert (await svc.act(copy, copy.player_ids[seat], moves[-1])).ok
        if svc is other:
            await asyncio.wait_for(slow.wait(), 10)
    await main.flush()  # (SimCord's settling would wait for the other's drawing too)
    assert (await row(world, live.id))["version"] == version + len(moves), moves
    # Its worker ends once that delivery is sent (it is no longer the holder's: waited
    # for by its task, as flushing what is queued there no longer does).
    slowly = other.delivery._workers[live.id]
    late.set()
    await asyncio.wait_for(slowly, 10)
    await settle(world, main, other)
    shown, saved = await table_fields(world, main, live.id)
    assert shown == saved, ("the table shows the position before the last move", moves)


async def test_a_panel_edit_overtaken_by_a_newer_panel_leaves_one_offering_moves(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder's delivery edits a seat's panel slowly as the other process, taking the
    match on, sends that seat a new one (the old one stripped there): the holder's edit,
    landing last, put the buttons back on the replaced panel, and nothing took them off."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    slow, late = drawn_slowly(monkeypatch, main, "dm_panel")
    live.dm_shown = [None, None]
    main.delivery.enqueue(live, Batch(hands={seat}))
    await asyncio.wait_for(slow.wait(), 10)
    sending = main.delivery._workers[live.id]
    old = live.dm_message_ids[seat]
    copy = await other.lookup(live.id)
    assert copy is not None
    await other.owners.hold(copy)
    await other.delivery.send_hand(copy, seat, new=True)
    newer = copy.dm_message_ids[seat]
    assert newer is not None and newer != old
    late.set()
    await asyncio.wait_for(sending, 10)
    await settle(world, main, other)
    assert offering(world, live.id, seat) == [newer] == [
        (await row(world, live.id))[f"dm{seat}_message_id"]]


async def test_a_table_edit_landing_after_the_table_moved_elsewhere_is_retired_again(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder's edit of its table, drawn slowly, lands after ``/umtali table`` through
    the other process replaced and retired that table: its buttons were back on it."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    copy = await other.lookup(live.id)
    assert copy is not None
    await other.owners.hold(copy)
    await settle(world, main, other)
    slow, late = drawn_slowly(monkeypatch, other, "table_message")
    other.delivery.enqueue(copy, Batch(table=True))
    await asyncio.wait_for(slow.wait(), 10)
    moving = await main.lookup(live.id)
    assert moving is not None
    _, posted = await table_moved(world, main, moving)
    slowly = other.delivery._workers[live.id]
    late.set()
    await asyncio.wait_for(slowly, 10)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["table_message_id"] == posted
    assert tables_offering(world, moving) == [posted], "the replaced table offers the hand"



async def test_a_panel_edit_landing_after_its_copy_learnt_the_newer_panel_is_stripped(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The two-process soak's seed 1030: the holder's edit of a seat's panel was on its way
    as the other process sent that seat a new panel (the old one stripped there), a read here
    took that panel into the copy sending, and the other process moved the match on. The
    edit landed on the replaced panel, buttons and all; the delivery, overtaken, went to a
    fresh copy, which knew of no panel to look for: the replaced one offered the turn."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    old = live.dm_message_ids[seat]
    assert old is not None
    editing, land = edit_held(monkeypatch, old)
    live.dm_shown = [None, None]
    main.delivery.enqueue(live, Batch(hands={seat}))
    await asyncio.wait_for(editing.wait(), 10)
    sending = main.delivery._workers[live.id]
    copy = await other.lookup(live.id)
    assert copy is not None
    await other.owners.hold(copy)
    await other.delivery.send_hand(copy, seat, new=True)
    newer = copy.dm_message_ids[seat]
    assert newer is not None and newer != old
    # A read here (another delivery's, a click's) takes the newer panel into the copy.
    assert not await main.owners.fell_behind(live)
    assert live.dm_message_ids[seat] == newer
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert (await other.act(copy, copy.player_ids[seat], move)).ok
    assert await main.owners.fell_behind(live)  # and finds it moved on: dropped here
    land.set()
    await asyncio.wait_for(sending, 10)
    await settle(world, main, other)
    assert old not in offering(world, live.id, seat), "the replaced panel offers a turn"


async def told_anew_after(world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
                          meanwhile: Callable[[LiveMatch], Awaitable[None]]) -> list[Any]:
    """Played in DMs, seat 0 ends its turn through this process, whose delivery is held up on
    seat 0's panel while ``meanwhile`` happens elsewhere: the new messages seat 1 was sent
    once the delivery went on."""
    live = await in_dms_at_seat_0s_turn_end(world)
    main = main_of(world)
    first = live.dm_message_ids[0]
    assert first is not None
    editing, land = edit_held(monkeypatch, first)
    # Seat 0 ends its turn through this process: seat 1 is to be told its turn anew.
    assert (await main.act(live, live.player_ids[0],
                           GreedyPlayer().choose(live.session.view(0)))).ok
    assert live.session.to_act == 1
    await asyncio.wait_for(editing.wait(), 10)
    sending = main.delivery._workers[live.id]
    await meanwhile(live)
    dm = f"/channels/{player(world, 1).user.dm_channel.id}/messages"
    since = len(world.env.http_requests)
    land.set()
    await asyncio.wait_for(sending, 10)
    await settle(world, main, other)
    return [r for r in world.env.http_requests[since:] if r.method == "POST" and r.path == dm]


async def test_a_turn_moved_on_elsewhere_as_a_delivery_went_out_is_not_told_anew(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The two-process soak's seed 1045, played in DMs (the channel lost): a turn's delivery
    held up on the first seat's panel while the other process took the match on; its second
    seat, the one to act, was then sent a new panel (which notifies) of a turn played
    already, buttons and all, until the save that refused its id took them off."""
    async def played_on(live: LiveMatch) -> None:
        # Seat 1 plays on through the other process meanwhile.
        copy = await other.lookup(live.id)
        assert copy is not None
        assert (await other.act(copy, copy.player_ids[1],
                                GreedyPlayer().choose(copy.session.view(1)))).ok
        await settle(world, other)

    posted = await told_anew_after(world, other, monkeypatch, played_on)
    assert not posted, "seat 1 was told anew a turn played already"


async def test_a_turn_told_anew_as_the_table_is_brought_back_elsewhere_is_told(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played in DMs (the channel lost), a turn's delivery was held up on the first seat's
    panel while the other player brought the table back to a channel through the other
    process (``/umtali table``: the match taken there, at the same version, the turn not
    played). The seat to act is still owed its new panel, which notifies: dropped as behind
    its holder, nobody told it its turn (the table is posted without a mention, and the
    holder's delivery edits the panels)."""
    copies: list[LiveMatch] = []

    async def table_brought_back(live: LiveMatch) -> None:
        # Seat 0 brings the table to the server's channel through the other process.
        copies.append(await brought_back(world, other, live.id))
        await settle(world, other)

    told = await told_anew_after(world, other, monkeypatch, table_brought_back)
    [copy] = copies
    assert copy.session.to_act == 1 and not copy.over
    assert told, "seat 1 was never told its turn"
