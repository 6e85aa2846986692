"""The limit on posting the live table again (``/umtali table``, ``TABLE_AGAIN``) is kept in
the database: a table posted through one process holds the next post back through another,
whichever holds the match; past the limit, the other process posts it and holds the match.
A table deleted within it is posted again at once through either (fix119)."""

from __future__ import annotations

from cogs.umtali.service import MatchService
from cogs.umtali.tables import TABLE_AGAIN
from tests.discord_helpers import World, start_match, thread_of
from tests.processes.helpers import main_of, row, settle, via


async def test_a_table_posted_through_one_process_holds_back_the_next_through_another(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main, thread = main_of(world), thread_of(world, live)
    posted = await world.alice.slash(thread, "umtali table")
    assert not posted.ephemeral and posted.response is not None
    await settle(world, main, other)
    assert (await row(world, live.id))["table_message_id"] == posted.response.id
    with via(world, other):
        refused = await world.bob.slash(thread, "umtali table")
    assert refused.ephemeral, refused.response
    assert f"/{thread.id}/{posted.response.id}" in str(refused.response.content)
    await settle(world, main, other)
    assert (await row(world, live.id))["table_message_id"] == posted.response.id
    assert (await row(world, live.id))["owner"] == "main"
    world.clock.advance(TABLE_AGAIN)
    with via(world, other):
        again = await world.bob.slash(thread, "umtali table")
        assert not again.ephemeral and again.response is not None
        await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["table_message_id"], saved["owner"]) == (again.response.id, "p2")


async def test_a_table_deleted_is_posted_again_at_once_through_another_process(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main, thread = main_of(world), thread_of(world, live)
    posted = await world.alice.slash(thread, "umtali table")
    assert not posted.ephemeral and posted.response is not None
    await settle(world, main, other)
    world.env.backend.delete_message(thread.id, posted.response.id)
    with via(world, other):
        again = await world.bob.slash(thread, "umtali table")
        assert not again.ephemeral and again.response is not None, again.response
        await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["table_message_id"], saved["owner"]) == (again.response.id, "p2")
    # Held back in its turn, through either process: that table is there.
    refused = await world.alice.slash(thread, "umtali table")
    assert refused.ephemeral, refused.response
    assert f"/{thread.id}/{again.response.id}" in str(refused.response.content)
