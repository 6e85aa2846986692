"""A click on a DM panel reaching a process that does not hold the match, while the holder
sends the seat a newer panel (a reminder's) and saves its id: the click's copy, loaded before,
takes the panel clicked for the seat's panel and plays the move on it. Its answer put the
buttons back on a panel the newer one had replaced, and nobody took them off again: two
panels offered moves, the newer one a turn already played."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, player, thread_of
from tests.processes.helpers import main_of, panel_saved_slowly, row, settle, via
from tests.test_left_orphan_panel import _drawing
from umtali.moves import MoveKind


def offering_moves(actor: Any, prefix: str) -> list[Any]:
    """The messages in the member's DMs offering a control whose id starts with ``prefix``
    (a match's panels: ``umtali:m:<id>:``)."""
    return [m for m in actor.user.dm_channel.history()
            if any(c.startswith(prefix) for c in custom_ids(m))]


async def taken_by_table(world: World, other: MatchService, actor: Any,
                         live: LiveMatch) -> LiveMatch:
    """``/umtali table`` by ``actor`` through ``other``, which holds the match from then on:
    its copy."""
    with via(world, other):
        moved = await actor.slash(thread_of(world, live), "umtali table")
    assert not moved.ephemeral, moved.response
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == "p2"
    return other.matches[live.id]

def newer_panel_when_read(monkeypatch: pytest.MonkeyPatch, main: MatchService,
                          other: MatchService, live: LiveMatch, seat: int) -> list[int]:
    """``other``'s first read of the match is followed at once by the holder (``main``)
    sending the seat a new panel (a reminder's), its id saved; what ``other`` read, returned
    (filled as it reads)."""
    lookup = other.lookup
    looked: list[int] = []

    async def late(match_id: int) -> LiveMatch | None:
        fresh = await lookup(match_id)
        if not looked:
            await main.delivery.send_hand(live, seat, new=True)
        looked.append(match_id)
        return fresh

    monkeypatch.setattr(other, "lookup", late)
    return looked

async def test_a_click_played_elsewhere_as_a_newer_panel_came_leaves_one_panel_offering_moves(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    clicked = actor.user.dm_channel.last_message
    assert clicked.id == live.dm_message_ids[seat]
    checked, sent = asyncio.Event(), asyncio.Event()
    act = other.act

    async def late(*args: Any, **kwargs: Any) -> Any:
        # The click is checked against the copy just loaded; its move waits for the save.
        checked.set()
        await sent.wait()
        return await act(*args, **kwargs)

    monkeypatch.setattr(other, "act", late)

    async def remind() -> None:
        await checked.wait()
        # Meanwhile the holder sends the seat a new panel (a reminder's), its id saved.
        await main.delivery.send_hand(live, seat, new=True)
        sent.set()

    reminding = asyncio.create_task(remind())
    with via(world, other):
        r = await actor.user.click(clicked, custom_id=f"umtali:m:{live.id}:{version}:draw")
    await reminding
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged, said
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1, "the draw was not played"
    newer = saved[f"dm{seat}_message_id"]
    assert newer is not None and newer > clicked.id
    # One panel offers moves, the seat's panel as saved, showing the draw made.
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [newer], [
        (m.id, custom_ids(m)) for m in offering]
    assert any(c.startswith(f"{prefix}{version + 1}:") for c in custom_ids(offering[0]))



async def test_a_move_typed_elsewhere_as_a_newer_panel_came_is_shown_on_that_panel(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same with the move typed (``/umtali play``), reaching the other process: its copy
    edited the older panel, the newer one offering the turn already played."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    older = live.dm_message_ids[seat]
    assert older is not None
    looked = newer_panel_when_read(monkeypatch, main, other, live, seat)
    move = next(m for m in live.session.view(seat).legal_moves if m.kind is MoveKind.DRAW)
    with via(world, other):
        r = await actor.slash(thread_of(world, live), "umtali play", move=str(move))
    assert r.acknowledged and looked
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1, "the draw was not played"
    newer = saved[f"dm{seat}_message_id"]
    assert newer is not None and newer > older
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [newer], [(m.id, custom_ids(m)) for m in offering]
    assert any(c.startswith(f"{prefix}{version + 1}:") for c in custom_ids(offering[0]))


async def test_a_resignation_elsewhere_as_a_newer_panel_came_shows_the_end_on_it(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A resignation confirmed through the other process, its copy read as the holder sent a
    newer panel: the end was shown on the older panel, the newer one offering a turn."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    actor = player(world, seat)
    with via(world, other):
        ask = await actor.slash(world.channel, "umtali resign")
    assert ask.ephemeral
    looked = newer_panel_when_read(monkeypatch, main, other, live, seat)
    with via(world, other):
        done = await actor.click(ask.response,
                                 custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert done.acknowledged and looked
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["status"] == "finished"
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert offering == [], [(m.id, custom_ids(m)) for m in offering]
    newest = actor.user.dm_channel.last_message
    assert newest.id == saved[f"dm{seat}_message_id"]
    assert "resigned" in (newest.embeds[0].description or "") or "wins" in (
        newest.embeds[0].description or ""), newest.embeds[0].description


async def test_a_table_brought_back_elsewhere_as_a_newer_panel_came_plays_on_that_panel(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/umtali table`` through the other process, which takes the match as its copy, read
    as the holder sent the seat a newer panel, has it: a click on that newer panel (the one
    offering the moves) was answered "not the one in play: play on the one above it", whose
    buttons were gone."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    looked = newer_panel_when_read(monkeypatch, main, other, live, seat)
    monkeypatch.setattr(other, "channel_match", lambda channel_id: other.lookup(live.id))
    with via(world, other):
        moved = await actor.slash(thread_of(world, live), "umtali table")
    assert looked and not moved.ephemeral, moved.response
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2"
    newer = actor.user.dm_channel.last_message
    assert newer.id == saved[f"dm{seat}_message_id"]
    with via(world, other):
        r = await actor.user.click(newer, custom_id=f"umtali:m:{live.id}:{version}:draw")
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
    assert (await row(world, live.id))["version"] == version + 1


async def test_a_click_on_a_panel_on_its_way_as_a_newer_one_is_saved_plays_on(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder sends the seat a new panel, its id's save waiting on a busy database; the
    member clicks it at once, reaching the other process, whose copy is read with that panel
    on its way; before that process takes it as the seat's panel, the holder saves it and
    sends a newer one (a reminder's). The take finds the newer one saved: the click was
    answered "not the one in play: play on the one above it", of a panel below it."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    saving, sending = await panel_saved_slowly(monkeypatch, main, live, seat)
    clicked = actor.user.dm_channel.last_message
    lookup = other.lookup

    async def late(match_id: int) -> Any:
        fresh = await lookup(match_id)
        assert fresh is not None and fresh.dm_sending[seat]
        # Read with the panel on its way; then its id is saved, and a newer panel sent.
        saving.set()
        await sending
        await main.delivery.send_hand(live, seat, new=True)
        return fresh

    monkeypatch.setattr(other, "lookup", late)
    with via(world, other):
        r = await actor.user.click(clicked, custom_id=f"umtali:m:{live.id}:{version}:draw")
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1, "the draw was not played"
    newest = actor.user.dm_channel.last_message
    assert saved[f"dm{seat}_message_id"] == newest.id > clicked.id
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [newest.id], [(m.id, custom_ids(m)) for m in offering]
    assert any(c.startswith(f"{prefix}{version + 1}:") for c in custom_ids(offering[0]))


async def test_a_match_abandoned_elsewhere_as_a_newer_panel_came_shows_the_end_on_it(
        world: World, other: MatchService) -> None:
    """The same for a match ended with no result through the other process (its server
    removed the bot, say, heard by the process running its shard)."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    actor = player(world, seat)
    fresh = await other.lookup(live.id)
    assert fresh is not None
    await main.delivery.send_hand(live, seat, new=True)
    assert await other.abandon(fresh)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["status"] == "finished"
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert offering == [], [(m.id, custom_ids(m)) for m in offering]


@pytest.mark.parametrize("delivered_first", [False, True])
async def test_a_panel_saved_late_after_a_take_elsewhere_is_the_seats(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        delivered_first: bool) -> None:
    """The holder sends the seat a new panel, its id's save waiting on a busy database, as
    ``/umtali table`` through the other process takes the match (no move: the version stays).
    The former holder's save then goes through (the match still at the version its panel
    shows), naming a panel the new holder's copy does not know: its next delivery of the
    seat's hand took that panel's buttons off (sent, unsaved, for all it knew) and edited the
    older one. ``delivered_first``: that delivery comes before the save lands (the former
    holder, saving, takes the buttons off the older one)."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    saving, sending = await panel_saved_slowly(monkeypatch, main, live, seat)
    held = await taken_by_table(world, other, actor, live)
    for deliver in (delivered_first, True):
        if deliver:
            # The seat's hand delivered by the process holding the match now (its turn's
            # warning, say), before the member clicks anything.
            held.dm_shown[seat] = None
            other.delivery.enqueue(held, Batch(hands={seat}))
            await settle(world, other)
        if not saving.is_set():
            saving.set()
            await sending
            await settle(world, main, other)
    prefix = f"umtali:m:{live.id}:"

    def offering() -> list[Any]:
        return offering_moves(actor, prefix)

    saved = await row(world, live.id)
    assert [m.id for m in offering()] == [saved[f"dm{seat}_message_id"]], [
        (m.id, custom_ids(m)) for m in offering()]
    # The member draws on the panel offering it, through the process holding the match.
    draw = f"{prefix}{version}:draw"
    [panel] = offering()
    with via(world, other):
        r = await actor.user.click(panel, custom_id=draw)
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1
    assert [m.id for m in offering()] == [saved[f"dm{seat}_message_id"]], [
        (m.id, custom_ids(m)) for m in offering()]
    assert any(c.startswith(f"{prefix}{version + 1}:") for c in custom_ids(offering()[0]))


async def test_a_panel_on_its_way_taken_elsewhere_and_read_back_here_replaces_the_older(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder sends the seat a new panel, its id's save waiting on a busy database; the
    member lays the hand out on it at once (no move), reaching the other process, which takes
    it as the seat's panel; a delivery here then reads it back (``Owners.fell_behind``) before
    the save lands. The send took it for the panel it replaced: the older one kept its
    buttons, the seat's mark cleared, two panels offering moves for good."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    actor = player(world, seat)
    older = live.dm_message_ids[seat]
    saving, sending = await panel_saved_slowly(monkeypatch, main, live, seat)
    newer = actor.user.dm_channel.last_message
    assert older is not None and newer.id > older
    with via(world, other):
        r = await actor.user.select(newer, ["rank"], custom_id=f"umtali:m:{live.id}:order")
    assert r.acknowledged
    assert (await row(world, live.id))[f"dm{seat}_message_id"] == newer.id
    assert other.matches.get(live.id) is None  # still held here
    # A delivery here meanwhile (the other seat's hand, say), reading the panels saved.
    main.delivery.enqueue(live, Batch(hands={1 - seat}))
    await settle(world, main)
    saving.set()
    await sending
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved[f"dm{seat}_message_id"] == newer.id == live.dm_message_ids[seat]
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [newer.id], [(m.id, custom_ids(m)) for m in offering]


async def test_a_panel_saved_late_after_the_new_holder_sent_its_own_leaves_one_offering_moves(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder starts sending the seat a new panel (a reminder's) as ``/umtali table``
    through the other process takes the match; the new holder sends the seat a new panel of
    its own (its warning), then the former holder's panel goes out, after it, and its save goes
    through (no version change). The new holder's delivery takes that panel, the newer, as the
    seat's: its own, replaced in memory alone, kept its buttons."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    marking, going = asyncio.Event(), asyncio.Event()
    mark = main.store.set_dm_sending

    async def slow(*args: Any, **kwargs: Any) -> None:
        # The former holder's send waits before its panel goes out (a busy database).
        marking.set()
        await going.wait()
        await mark(*args, **kwargs)

    monkeypatch.setattr(main.store, "set_dm_sending", slow)
    sending = asyncio.create_task(main.delivery.send_hand(live, seat, new=True))
    await asyncio.wait_for(marking.wait(), 10)
    held = await taken_by_table(world, other, actor, live)
    await other.delivery.send_hand(held, seat, new=True)
    own = held.dm_message_ids[seat]
    going.set()
    await sending
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2" and saved[f"dm{seat}_message_id"] > own
    # The seat's hand delivered by the process holding the match (a turn's warning, say).
    held.dm_shown[seat] = None
    other.delivery.enqueue(held, Batch(hands={seat}))
    await settle(world, main, other)
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [saved[f"dm{seat}_message_id"]], [
        (m.id, custom_ids(m)) for m in offering]
    assert held.dm_message_ids[seat] == saved[f"dm{seat}_message_id"]
    # The member draws on it, through the process holding the match.
    with via(world, other):
        r = await actor.user.click(offering[0], custom_id=f"{prefix}{version}:draw")
    assert r.acknowledged and not r.ephemeral
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [saved[f"dm{seat}_message_id"]], [
        (m.id, custom_ids(m)) for m in offering]


async def test_a_panel_saved_late_after_the_new_holder_saved_a_newer_one_is_not_the_seats(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """As above, the former holder's panel sent before the new holder's own (its warning) and
    its save landing after that one's: it replaced the newer panel as saved, the new holder's
    copy still editing that one. A copy read from the database then (a restart, a click
    reaching another process) took the older, stripped panel for the seat's."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    actor = player(world, seat)
    saving, sending = await panel_saved_slowly(monkeypatch, main, live, seat)
    late = actor.user.dm_channel.last_message
    held = await taken_by_table(world, other, actor, live)
    await other.delivery.send_hand(held, seat, new=True)
    own = held.dm_message_ids[seat]
    assert own is not None and own > late.id
    saving.set()
    await sending
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2"
    assert saved[f"dm{seat}_message_id"] == own == held.dm_message_ids[seat]
    prefix = f"umtali:m:{live.id}:"
    offering = offering_moves(actor, prefix)
    assert [m.id for m in offering] == [own], [(m.id, custom_ids(m)) for m in offering]
