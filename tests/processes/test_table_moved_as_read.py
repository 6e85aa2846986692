"""A member's action reaching a process that does not hold the match, whose copy was read
just before ``/umtali table`` (through the holder) brought the table to a new message: that
action's save (it changes the version, a table's move does not) makes the other process the
holder, with a copy naming the table replaced. Its delivery edited that one, the buttons back
on it, and never the live one: two tables offered "My hand", and after the end the live one
still did."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, player, start_match, thread_of
from tests.processes.helpers import main_of, row, settle, table_moved, via
from umtali.moves import MoveKind


def tables_offering(world: World, live: LiveMatch) -> list[int]:
    """The messages in the match's thread offering its "My hand" button."""
    button = f"umtali:m:{live.id}:hand"
    return [m.id for m in thread_of(world, live).history() if button in custom_ids(m)]


def table_moved_as_saved(monkeypatch: pytest.MonkeyPatch, world: World, mover: MatchService,
                         saver: MatchService, match_id: int, save: str) -> list[int]:
    """``saver``'s save ``save`` (of its store) is preceded at once by ``/umtali table``
    through ``mover``, after ``saver`` read its copy: the tables replaced, filled as it
    saves."""
    saving = getattr(saver.store, save)
    replaced: list[int] = []

    async def late(*args: Any, **kwargs: Any) -> Any:
        if not replaced:
            live = await mover.lookup(match_id)
            assert live is not None
            replaced.append((await table_moved(world, mover, live))[0])
        return await saving(*args, **kwargs)

    monkeypatch.setattr(saver.store, save, late)
    return replaced


async def test_a_move_elsewhere_from_a_copy_read_as_the_table_moved_shows_on_the_live_table(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    replaced = table_moved_as_saved(monkeypatch, world, main, other, live.id,
                                    "record_move")
    move = next(m for m in live.session.view(seat).legal_moves if m.kind is not MoveKind.DRAW)
    with via(world, other):
        r = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                            move=str(move))
    assert r.acknowledged and replaced
    await settle(world, main, other)
    saved = await row(world, live.id)
    said = [m.content for m in [r.response, *r.followups] if m is not None]
    assert saved["version"] == version + 1, ("the move was not played", move, said)
    assert saved["owner"] == other.owners.name
    # One table offers the hand, the live one as saved, showing the move made.
    assert tables_offering(world, live) == [saved["table_message_id"]]
    assert saved["table_message_id"] != replaced[0]
    copy = other.matches[live.id]
    assert copy.table_message_id == saved["table_message_id"]


async def test_a_resignation_elsewhere_from_a_copy_read_as_the_table_moved_ends_the_live_table(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    replaced = table_moved_as_saved(monkeypatch, world, main, other, live.id,
                                    "finish_match")
    with via(world, other):
        asked = await world.bob.slash(thread_of(world, live), "umtali resign")
        assert asked.ephemeral and asked.response is not None, asked.response
        button = next(c for c in custom_ids(asked.response) if c.endswith(":resign"))
        done = await world.bob.click(asked.response, custom_id=button)
    assert done.acknowledged and replaced
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["status"] == "finished"
    assert tables_offering(world, live) == [], "a table still offers the hand after the end"
    table: Any = next(m for m in thread_of(world, live).history()
                      if m.id == saved["table_message_id"])
    assert table.id != replaced[0]


async def test_a_move_through_the_holder_as_the_table_moved_elsewhere_shows_on_the_live_table(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder's own copy, as ``/umtali table`` through the other process takes the match
    and moves its table (no version changes): the holder's move is saved after it, and makes
    it the holder again."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    replaced = table_moved_as_saved(monkeypatch, world, other, main, live.id, "record_move")
    move = next(m for m in live.session.view(seat).legal_moves if m.kind is not MoveKind.DRAW)
    assert (await main.act(live, live.player_ids[seat], move)).ok
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1 and replaced
    assert saved["owner"] == main.owners.name
    assert tables_offering(world, live) == [saved["table_message_id"]]
    assert live.table_message_id == saved["table_message_id"] != replaced[0]
