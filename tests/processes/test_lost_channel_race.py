"""A move saved through a process that read the match just before its holder found the match's
channel lost: the channel's announcements are not queued again for the lost channel.

The save added its turn's announcement to the unsent list though the database had the channel
lost (its copy, read before, did not): it was posted in the channel the match had left, and a
process knowing the channel lost (one taking the match over) would never post it, keeping the
match held once over. A save adds no announcement for a match whose channel is lost.
"""

from __future__ import annotations

import json

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import first_line, main_of, row, said, settle
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def test_a_move_saved_from_a_copy_read_before_the_channel_was_lost_queues_nothing(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    # The player's click reaches the other process, which reads the match ...
    copy = await other.lookup(live.id)
    assert copy is not None and not copy.channel_lost
    # ... as the holder finds the channel lost.
    await main.lose_channel(live)
    assert (await row(world, live.id))["channel_lost"] == 1
    seat = copy.session.to_act
    assert (await other.act(copy, copy.player_ids[seat],
                            GreedyPlayer().choose(copy.session.view(seat)))).ok
    turn_end = first_line(copy.last_turn)
    assert copy.version == live.version + 1 and turn_end
    saved = await row(world, live.id)
    assert saved["channel_lost"] == 1 and json.loads(saved["unsent"]) == []
    assert copy.unsent == []
    await settle(world, main, other)
    assert said(world, live, turn_end) == []
