"""fix136: ``/umtali table`` held back answers with the live table's link as seen a moment ago
(``SEEN_FOR``), not looking again; a table deleted within that time was given as a dead link,
and nothing more was said. Now the table is looked at once that time is over (one request for
all who asked meanwhile), and whoever was given the link is told it was deleted. SimCord."""

from __future__ import annotations

import asyncio

from cogs.umtali.tables import SEEN_FOR
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_table_again_deleted import _moderator
from tests.test_table_again_limit import _live_tables, _posted_again

#: Seconds left of the look's time as the member asks (the test's clock is moved on: the look
#: waits for it, by the service's steady clock).
LEFT = 2.0


async def _told(result: object, words: str) -> str:
    """The private follow-up to ``result`` that says ``words``, waited for."""
    for _ in range(200):
        said = [str(m.content) for m in result.followups]  # type: ignore[attr-defined]
        if any(words in s for s in said):
            return next(s for s in said if words in s)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no follow-up saying {words!r}")


async def test_a_table_deleted_within_the_look_is_said_so_to_who_was_sent_there(
        world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    looked = f"/channels/{thread.id}/messages/{first.id}"

    def looks() -> int:
        return sum(r.method == "GET" and r.path == looked for r in world.env.http_requests)

    assert (await world.bob.slash(thread, "umtali table")).ephemeral  # (looked: there)
    await _moderator(world).delete(first)
    world.clock.advance(SEEN_FOR - LEFT)
    sent = await world.alice.slash(thread, "umtali table")
    assert sent.ephemeral and f"/{thread.id}/{first.id}" in str(sent.response.content)
    world.clock.advance(LEFT)
    said = await _told(sent, "was deleted since")
    assert "ask again with `/umtali table`" in said, said
    assert looks() == 2
    # Asked again, it is posted at once.
    again = await _posted_again(world, world.alice, thread)
    assert live.table_message_id == again.id
    assert _live_tables(world, live.id, thread) == [again.id]
    await flush(world)


async def test_a_table_still_there_says_nothing_more(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    assert (await world.bob.slash(thread, "umtali table")).ephemeral
    world.clock.advance(SEEN_FOR - LEFT)
    sent = await world.alice.slash(thread, "umtali table")
    assert sent.ephemeral and f"/{thread.id}/{first.id}" in str(sent.response.content)
    world.clock.advance(LEFT)
    svc = world.bot.matches
    assert svc is not None
    # Found there at that look (waited for, not a guess at how long it takes): taken to be
    # there for its time again.
    for _ in range(200):
        if live.table_seen == (first.id, svc.ticks()):
            break
        await asyncio.sleep(0.05)
    assert live.table_seen == (first.id, svc.ticks()), live.table_seen
    await flush(world)
    assert sent.followups == []
