"""fix136: what this process keeps in memory a while is timed by its steady clock
(``MatchService.ticks``): the once-a-minute limit on boards and stats in a channel, and how long
``/umtali table`` takes its live table to be there without looking. On the wall clock, a clock
set back or forward (NTP) lifted the limit, or ended the look's time at once. SimCord."""

from __future__ import annotations

import pytest

from tests.discord_helpers import World, start_match, thread_of
from tests.test_records_discord import text_of
from tests.test_table_again_limit import _posted_again


@pytest.mark.parametrize("step", [-120.0, 120.0])
async def test_the_wall_clock_set_lifts_no_limit(world: World, step: float) -> None:
    first = await world.carol.slash(world.channel, "umtali leaderboard")
    assert not first.ephemeral
    world.clock.step(step)
    again = await world.bob.slash(world.channel, "umtali stats")
    assert again.ephemeral, text_of(again)
    assert "less than a minute ago" in str(again.response.content)
    world.clock.advance(60)
    assert not (await world.bob.slash(world.channel, "umtali stats")).ephemeral


async def test_the_wall_clock_set_forward_ends_no_look_at_the_table(world: World) -> None:
    """The live table found there is taken to be there ``SEEN_FOR`` seconds by the steady
    clock: the wall clock set forward (NTP) made the bot ask Discord again at once."""
    live = await start_match(world)
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    looked = f"/channels/{thread.id}/messages/{first.id}"

    def looks() -> int:
        return sum(r.method == "GET" and r.path == looked for r in world.env.http_requests)

    assert (await world.bob.slash(thread, "umtali table")).ephemeral
    world.clock.step(20)  # (within the table's minute still)
    refused = await world.alice.slash(thread, "umtali table")
    assert refused.ephemeral and f"/{thread.id}/{first.id}" in str(refused.response.content)
    assert looks() == 1
