"""A process taking a match to change it in a way no version guards (the table moved, the
time-up question answered "keep waiting") while the holder saves a move: it holds the match as
the database has it, never a copy from before that move (docs/processes.md)."""

from __future__ import annotations

import json

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import first_line, main_of, row, said, settle
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def test_a_match_taken_as_its_holder_saves_a_move_is_held_as_saved(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    # A player's /umtali table reaches the other process, which finds the match as it is ...
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    # ... while the holder saves the turn's end, not yet announced when the match is taken.
    await main.delivery.close()
    seat = live.session.to_act
    world.clock.advance(10)
    assert (await main.act(live, live.player_ids[seat],
                           GreedyPlayer().choose(live.session.view(seat)))).ok
    turn_end = first_line(live.last_turn)
    await other.move_to(copy, copy.channel_id, copy.table_message_id or 0)
    await settle(world, other)
    saved = await row(world, live.id)
    assert saved["owner"] == "p2"
    held = other.matches[live.id]
    # Held as saved: the new turn's clock runs here, and the turn's end is announced, once.
    assert (held.version, held.deadline) == (saved["version"], saved["deadline"])
    assert held.session.to_act == 1 - seat
    assert len(said(world, held, turn_end)) == 1
    assert json.loads(saved["unsent"]) == []
