"""``/umtali table`` run by both players at the same moment, each reaching another process
(docs/processes.md): one process's lock of the match does not stop the other. The second to
save finds the table moved since it read where it was, and replaces the live table as saved,
never the one both read: one live table with buttons, the one the database has."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import retiring
from cogs.umtali.panels import table_panel
from cogs.umtali.service import MatchService
from data.models import MatchRow
from tests.discord_helpers import World, custom_ids, start_match, thread_of
from tests.processes.helpers import act_via, main_of, row, settle
from umtali.moves import MoveKind


def _live_tables(match_id: int, *channels: Any) -> list[Any]:
    button = f"umtali:m:{match_id}:hand"
    return [m for channel in channels for m in channel.history() if button in custom_ids(m)]


async def test_two_tables_posted_at_once_through_two_processes_leave_one_live_table(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    read = main.store.match
    bobs: list[int] = []

    async def raced(match_id: int) -> MatchRow | None:
        found = await read(match_id)
        if not bobs:
            # Alice's process has just read where the table is: bob's /umtali table, reaching
            # the other process, is posted and saved first (as ``tables.post_table`` does).
            theirs = await other.lookup(match_id)
            assert theirs is not None
            posted = await world.bot.get_partial_messageable(thread.id).send(
                **other.table_message(theirs).send(), view=table_panel(match_id))
            bobs.append(posted.id)
            replaced = await other.move_to(theirs, thread.id, posted.id)
            assert replaced is not None and replaced == old
            await retiring.retire(world.bot, theirs, replaced)
        return found

    monkeypatch.setattr(main.store, "match", raced)
    mine = await world.alice.slash(thread, "umtali table")
    await settle(world, main, other)
    assert not mine.ephemeral and mine.response is not None
    [table] = _live_tables(live.id, thread)
    assert table.id == (await row(world, live.id))["table_message_id"] == mine.response.id
    # Both tables it replaced say where the live one is.
    for replaced in (old, bobs[0]):
        [message] = [m for m in thread.history() if m.id == replaced]
        assert "moved" in (message.embeds[0].description or ""), replaced

    # The process that saved the live table holds the match; the other, whose copy has the
    # table it replaced, no longer does. A whole turn played through that other process then
    # shows on the live table alone: the replaced one is never brought back.
    assert (await row(world, live.id))["owner"] == main.owners.name
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs.table_message_id == mine.response.id
    seat = theirs.session.to_act
    while not theirs.over and theirs.session.to_act == seat:
        legal = theirs.session.legal_moves()
        move = next((m for m in legal if m.kind is MoveKind.DISCARD), legal[0])
        await act_via(world, other, live.id, move)
        await settle(world, main, other)
        theirs = await other.lookup(live.id)
        assert theirs is not None
    [table] = _live_tables(live.id, thread)
    assert table.id == (await row(world, live.id))["table_message_id"] == mine.response.id
