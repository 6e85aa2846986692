"""The live table deleted by a member, and posted again by the process holding the match while
a member's ``/umtali table`` reaches another process: the repost is saved only if the table is
still where that process read it. Saved regardless, it would put its table over the one the
other process just moved the match to, leaving two tables with buttons, and the other
process's copy (which now holds the match) would keep editing a table the database forgot."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import retiring
from cogs.umtali.panels import table_panel
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, start_match, thread_of
from tests.processes.helpers import act_via, main_of, row, settle
from umtali.moves import MoveKind


def _live_tables(match_id: int, channel: Any) -> list[Any]:
    button = f"umtali:m:{match_id}:hand"
    return [m for m in channel.history() if button in custom_ids(m)]


async def test_a_table_posted_again_as_another_process_moves_it_leaves_one_live_table(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    # Someone deleted the table: the holder's next edit of it finds it gone.
    assert old is not None
    await world.bot.get_partial_messageable(thread.id).get_partial_message(old).delete()
    save = main.store.replace_table_message
    bobs: list[int] = []

    async def raced(*args: Any, **kwargs: Any) -> bool:
        if not bobs:
            # The holder has posted the table again; before it saves it, bob's /umtali table,
            # reaching the other process, is posted and saved (as ``tables.post_table`` does).
            theirs = await other.lookup(live.id)
            assert theirs is not None
            posted = await world.bot.get_partial_messageable(thread.id).send(
                **other.table_message(theirs).send(), view=table_panel(live.id))
            bobs.append(posted.id)
            replaced = await other.move_to(theirs, thread.id, posted.id)
            assert replaced == old
            await retiring.retire(world.bot, theirs, replaced)
        return await save(*args, **kwargs)

    monkeypatch.setattr(main.store, "replace_table_message", raced)
    seat = live.session.to_act
    while live.session.to_act == seat:  # a turn through the holder: its table is edited
        legal = live.session.legal_moves()
        move = next((m for m in legal if m.kind is MoveKind.DISCARD), legal[0])
        assert (await main.act(live, live.player_ids[seat], move)).ok
    await settle(world, main, other)
    assert bobs
    [table] = _live_tables(live.id, thread)
    assert table.id == (await row(world, live.id))["table_message_id"] == bobs[0]

    # A whole turn played through the other process shows on that table.
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs.table_message_id == bobs[0]
    seat = theirs.session.to_act
    while not theirs.over and theirs.session.to_act == seat:
        legal = theirs.session.legal_moves()
        await act_via(world, other, live.id,
                      next((m for m in legal if m.kind is MoveKind.DISCARD), legal[0]))
        await settle(world, main, other)
        theirs = await other.lookup(live.id)
        assert theirs is not None
    [table] = _live_tables(live.id, thread)
    assert table.id == (await row(world, live.id))["table_message_id"] == bobs[0]
