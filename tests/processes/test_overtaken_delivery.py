"""Two processes each showing a move of the same match, the earlier move's edit of the table
reaching Discord after the later move's (drawn slowly, or held up by a rate limit): the table
showed the earlier position until the next move, the database one move further on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali import retiring
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import table_panel
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match, thread_of
from tests.processes.helpers import main_of, row, settle
from tests.processes.test_table_moved_as_read import tables_offering
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


async def test_a_table_edit_overtaken_by_a_later_moves_is_shown_again_as_saved(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main)
    version = live.version
    # The other process draws its table slowly: its edit reaches Discord last.
    drawing = other.table_message
    slow, late = asyncio.Event(), asyncio.Event()

    def table_message(copy: Any) -> Any:
        shown = drawing(copy)
        if late.is_set():
            return shown
        draw = shown.drawn

        async def drawn() -> Any:
            slow.set()
            await late.wait()
            return await draw()

        shown.drawn = drawn  # type: ignore[method-assign]
        return shown

    monkeypatch.setattr(other, "table_message", table_message)
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
    drawing = other.table_message
    slow, late = asyncio.Event(), asyncio.Event()

    def table_message(shown_copy: Any) -> Any:
        shown = drawing(shown_copy)
        if late.is_set():
            return shown
        draw = shown.drawn

        async def drawn() -> Any:
            slow.set()
            await late.wait()
            return await draw()

        shown.drawn = drawn  # type: ignore[method-assign]
        return shown

    monkeypatch.setattr(other, "table_message", table_message)
    other.delivery.enqueue(copy, Batch(table=True))
    await asyncio.wait_for(slow.wait(), 10)
    moving = await main.lookup(live.id)
    assert moving is not None
    thread = thread_of(world, moving)
    table = await main.table_message(moving).drawn()
    posted = await world.bot.get_partial_messageable(thread.id).send(
        **table.send(), view=table_panel(live.id))
    old = await main.move_to(moving, thread.id, posted.id)
    assert old is not None
    await retiring.retire(world.bot, moving, old)
    slowly = other.delivery._workers[live.id]
    late.set()
    await asyncio.wait_for(slowly, 10)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["table_message_id"] == posted.id
    assert tables_offering(world, moving) == [posted.id], "the replaced table offers the hand"
