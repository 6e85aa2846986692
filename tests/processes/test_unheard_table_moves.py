"""``/umtali table`` whose save of the new table (``move_match``) went through unheard
(``tests.unheard``), on SQLite and PostgreSQL: the member was told something went wrong with
the new table posted and saved as the live one, and the copy in memory went on editing the
table it replaced until the next save read where the match is. Read back, it is moved."""

from __future__ import annotations

import pytest

from cogs.umtali.errors import APOLOGY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match, thread_of
from tests.processes.helpers import main_of, row, settle
from tests.processes.test_table_moved_as_read import tables_offering
from tests.processes.test_unheard_moves import words
from tests.unheard import MAYBE, lose_answer

#: The match played at the new table (``MessageQueries.move_match``).
MOVE = "UPDATE matches SET channel_id = ?, table_message_id = ?"


async def test_a_table_moved_unheard_is_the_live_table(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    thread = thread_of(world, live)
    table = live.table_message_id
    lost = lose_answer(monkeypatch, main.store.db, MOVE)
    result = await world.bob.slash(thread, "umtali table")
    await settle(world, main, other)
    assert lost.answers == 1
    assert not any(APOLOGY[:20] in w for w in words(result)), words(result)
    saved = await row(world, live.id)
    assert result.response is not None
    assert saved["table_message_id"] == result.response.id != table
    assert main.matches[live.id].table_message_id == saved["table_message_id"]


async def test_a_table_moved_in_doubt_is_read_back_at_the_clocks_next_check(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save's answer lost and the read back failing too: the member is told it may or
    may not have been saved, the new table is taken down, and the match is doubted. The
    database names that table: the clock's next check reads the match back (``settle``), and
    the copy goes where the database says, rather than on editing the table it replaced,
    which is retired (it stayed up, frozen, its buttons on)."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    thread = thread_of(world, live)
    table = live.table_message_id
    lost = lose_answer(monkeypatch, main.store.db, MOVE, reads_fail=1)
    result = await world.bob.slash(thread, "umtali table")
    await settle(world, main, other)
    assert lost.answers == 1 and lost.reads == 1 and live.doubted
    assert any(MAYBE in w for w in words(result)), words(result)
    # (the command's error, as the bot logs it)
    assert [type(e.__cause__ or e).__name__ for e in world.env.errors] == ["InDoubt"]
    await main.check_timers()
    await settle(world, main, other)
    assert not live.doubted
    saved = await row(world, live.id)
    assert saved["table_message_id"] != table
    assert main.matches[live.id].table_message_id == saved["table_message_id"], \
        "the copy still edits the table the move replaced"
    assert saved["table_message_id"] in [m.id for m in thread.history()], \
        "the database names a table taken down"
    assert tables_offering(world, live) == [saved["table_message_id"]], \
        "the table the move replaced still offers the hand"
