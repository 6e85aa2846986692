"""The live table deleted by a member, posted again by the match's delivery (outside the
match's lock) while an abandonment's save was being answered: the save had read the deleted
table as the match's, and the copy took that back over the repost it had just saved, leaving
the live table as saved to the next delivery's check (``was``, as every other save has)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, custom_ids, start_match, thread_of
from tests.processes.helpers import main_of, row, settle


async def test_a_table_posted_again_as_an_abandonment_is_saved_is_the_one_ended(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    thread = thread_of(world, live)
    old = live.table_message_id
    assert old is not None
    await world.bot.get_partial_messageable(thread.id).get_partial_message(old).delete()
    abandon = main.store.abandon_match
    reposted: list[int | None] = []

    async def posted_again_meanwhile(*args: Any, **kwargs: Any) -> Any:
        unsent = await abandon(*args, **kwargs)
        # Saved, its answer on its way: the delivery finds the table gone and posts it again.
        main.delivery.enqueue(live, Batch(table=True))
        await main.delivery.flush(live.id)
        assert live.table_message_id != old
        reposted.append(live.table_message_id)
        return unsent

    monkeypatch.setattr(main.store, "abandon_match", posted_again_meanwhile)
    assert await main.abandon(live)
    assert live.table_message_id == reposted[0], "the copy went back to the deleted table"
    await settle(world, main)
    saved = await row(world, live.id)
    assert saved["status"] != "active"
    assert live.table_message_id == saved["table_message_id"] == reposted[0]
    button = f"umtali:m:{live.id}:hand"
    assert [m.id for m in thread.history() if button in custom_ids(m)] == [], \
        "the table posted again offers the hand after the end"
