"""A takeover racing a move: the process taking over a match whose lease lapsed reads it, and
before it gives the running turn its time back, its former holder (alive, only late renewing)
saves the turn's end. The time given back must not be written over that move.

It was written over: ``resume_after_downtime`` wrote the deadline, the unsent announcements
and the reserve through ``Store.resume_turn`` with no version check, so that move's
announcement was lost and the new turn got the old turn's deadline (and the reserve of the
wrong turn). Now it writes only at the version it read.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.umtali.claims import LEASE
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def test_a_move_saved_during_a_takeover_is_not_written_over(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=60)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    seat = live.session.to_act
    read = other.store.match

    async def read_then_move(match_id: int) -> Any:
        found = await read(match_id)
        if found is not None and found.id == live.id and not live.over \
                and live.session.to_act == seat:
            # The former holder saves the turn's end just after the match was read.
            assert (await main.act(live, live.player_ids[seat],
                                   GreedyPlayer().choose(live.session.view(seat)))).ok
            world.clock.advance(5)
        return found

    monkeypatch.setattr(other.store, "match", read_then_move)
    await main.delivery.close()  # its announcement not posted yet when the time is given
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    saved = await row(world, live.id)
    # The new turn's deadline, and the move's announcement still to post.
    assert saved["deadline"] == live.deadline
    assert json.loads(saved["unsent"]) == live.unsent != []
