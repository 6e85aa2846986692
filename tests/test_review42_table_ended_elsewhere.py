"""``/umtali table`` while another process ends the match (its holder's abandon, saved while
the new table was on its way): this process's copy, read before, still has the match in
play. The table posted must show the match as it ended, not as the stale copy has it (a turn
to play, with nothing left to click). SimCord, a real SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.tables as tables
from cogs.umtali.in_time import post_public
from tests.discord_helpers import World, custom_ids, flush, start_match, thread_of
from tests.test_faults_timers import db_row


async def test_a_table_posted_as_another_process_ends_the_match_shows_the_ending(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    before = db_row(db_path, live.id)
    posted = post_public

    async def ended_elsewhere(interaction: Any, **fields: Any) -> Any:
        message = await posted(interaction, **fields)
        # Another process ends the match meanwhile, as saved: this copy knows nothing of it.
        assert await svc.store.abandon_match(live.id, "abandoned", svc.clock(),
                                             owner="elsewhere", lease_until=svc.clock() + 60) \
            is not None
        return message

    monkeypatch.setattr(tables, "post_public", ended_elsewhere)
    shown = await world.alice.slash(thread, "umtali table")
    await flush(world)
    assert shown.acknowledged, shown.response
    row = db_row(db_path, live.id)
    assert (row["status"], row["table_message_id"]) == ("finished", before["table_message_id"])
    new = [m for m in thread.history() if m.id != before["table_message_id"] and m.embeds
           and not custom_ids(m)]
    assert new, [m.embeds for m in thread.history()]
    # It says the match ended, as the table of a match abandoned does.
    assert all(any("no result" in (e.description or "") for e in m.embeds) for m in new), \
        [[e.description for e in m.embeds] for m in new]
