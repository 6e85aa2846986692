"""A table edit tried again by a process that no longer holds the match: a player brought the
table back through another process meanwhile (docs/processes.md). The retry leaves the
replaced table as it is, saying where the live one is: one live table with buttons."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.umtali.retries
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, start_match, thread_of
from tests.processes.helpers import main_of, row, settle, via
from tests.test_faults_delivery import _end_turn
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)

#: Seconds before a first retry: none fires by itself while SimCord settles.
RETRY = 60.0


def _live_tables(match_id: int, channel: Any) -> list[Any]:
    return [m for m in channel.history() if f"umtali:m:{match_id}:hand" in custom_ids(m)]


@pytest.mark.usefixtures("server_errors")
async def test_a_table_edit_tried_again_after_the_table_moved_elsewhere_revives_nothing(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cogs.umtali.retries, "RETRY_FIRST", RETRY)
    live = await start_match(world)
    main = main_of(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    # Discord fails the turn's table edit once: the holder tries it again in a minute ...
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old}", status=503,
                           message="Unavailable", times=1)
    await _end_turn(world, live)
    # ... while the table, not brought up to date, is posted again through the other process.
    with via(world, other):
        r = await world.alice.slash(thread, "umtali table")
        await settle(world, main, other)
    assert not r.ephemeral and r.response is not None
    assert (await row(world, live.id))["owner"] == "p2"
    await world.env.advance_time(RETRY + 1)
    await settle(world, main, other)
    [table] = _live_tables(live.id, thread)
    assert table.id == r.response.id == (await row(world, live.id))["table_message_id"]
    [replaced] = [m for m in thread.history() if m.id == old]
    assert "moved" in (replaced.embeds[0].description or "")
