"""``/umtali table`` while the match ends (abandoned by another path: its channel lost and a
player's DMs refused, a cancel, a removal): the new table was posted, then saved as the
match's place on the finished match (``move_match`` checked where it was, not that it was
still in play), marking its channel found again (``channel_lost = 0``) on an abandoned match
whose ending said it was lost. Found by the fault soak (seed 2129, two processes, PostgreSQL).
Now nothing is saved on a match that ended: the posted table shows it ended, with no button.
SimCord, a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.tables as tables
from cogs.umtali.in_time import post_public
from tests.discord_helpers import World, custom_ids, flush, start_match, thread_of
from tests.test_faults_timers import db_row


@pytest.mark.parametrize("where", ["here", "elsewhere"])
async def test_a_table_posted_as_the_match_is_abandoned_is_not_saved_as_its_place(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """``here``: this process's abandon; ``elsewhere``: another process's, saved while this
    copy, read before, still has the match in play (review42: the table posted showed the
    stale copy, a turn to play with nothing to click)."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    before = db_row(db_path, live.id)
    posted = post_public

    async def ended_meanwhile(interaction: Any, **fields: Any) -> Any:
        message = await posted(interaction, **fields)
        # The match ends while its new table is on its way.
        if where == "here":
            assert await svc.abandon(live)
        else:
            assert await svc.store.abandon_match(
                live.id, "abandoned", svc.clock(), owner="elsewhere",
                lease_until=svc.clock() + 60) is not None
        return message

    monkeypatch.setattr(tables, "post_public", ended_meanwhile)
    shown = await world.alice.slash(thread, "umtali table")
    await flush(world)
    assert shown.acknowledged, shown.response
    row = db_row(db_path, live.id)
    assert (row["status"], row["how"]) == ("finished", "abandoned")
    # Not moved: the place as the ending left it.
    assert row["table_message_id"] == before["table_message_id"]
    assert row["channel_lost"] == before["channel_lost"]
    # The table posted says the match ended, and offers nothing to click.
    new = [m for m in thread.history() if m.id != before["table_message_id"] and m.embeds]
    assert new and not any(custom_ids(m) for m in new), [m.embeds for m in thread.history()]
    assert all(any("no result" in (e.description or "") for e in m.embeds) for m in new), \
        [[e.description for e in m.embeds] for m in new]


async def test_a_match_brought_back_to_a_channel_is_not_abandoned_by_a_check_made_before(
        world: World, db_path: Path) -> None:
    """Its channel lost and a player's DMs closed, the match was to be abandoned; the other
    player's ``/umtali table`` brought it back to a channel as the abandon waited for the
    match: judged before, the abandon ended a match both players could play again."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    assert await svc.lose_channel(live, live.channel_id)
    await svc.store.set_dm_refused(live.id, 0)
    live.dm_refused[0] = True
    assert live.table_message_id is not None
    again = live.table_message_id + 1  # the table posted again (only its id is saved)
    # The move takes the match first; the abandon, judged unreachable now, waits for it.
    moving = asyncio.create_task(svc.move_to(live, thread.id, again))
    await asyncio.sleep(0)
    assert live.lock.locked()
    abandoned = await svc.abandon_if_unreachable(live)
    await moving
    await flush(world)
    assert not abandoned and not live.over and not live.channel_lost
    row = db_row(db_path, live.id)
    assert (row["status"], row["channel_lost"]) == ("active", 0)
