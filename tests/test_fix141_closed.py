"""fix141: work started beside a command after the service closed (a command answered as the
bot stops) was never cancelled: the memo's look at the live table (``table_doubts``), and what
``Beside`` runs (a post's failure told). Now none starts. SimCord."""

from __future__ import annotations

import asyncio

from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_table_again_limit import _posted_again


def _looks() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("umtali-table-doubted")]


async def test_no_look_at_the_table_starts_once_the_service_closed(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    assert (await world.bob.slash(thread, "umtali table")).ephemeral  # (looked: there)
    svc = world.bot.matches
    assert svc is not None
    await svc.close()
    sent = await world.alice.slash(thread, "umtali table")  # (from the look, as it stops)
    assert sent.ephemeral and f"/{thread.id}/{first.id}" in str(sent.response.content)
    assert _looks() == []
    await flush(world)


async def test_nothing_starts_beside_once_the_service_closed(world: World) -> None:
    await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    await svc.close()
    ran = asyncio.Event()

    async def work() -> None:
        ran.set()

    svc.beside.start(work(), None, "word of a post")
    await asyncio.sleep(0.05)
    assert not ran.is_set()
    await flush(world)
