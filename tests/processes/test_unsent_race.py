"""A move saved through a process that read the match while its holder's announcement was still
unsent, the holder posting (and clearing) it in between: the announcement goes out once.

It went out twice: a save wrote the unsent announcements whole, as the saving process's copy
had them, over the holder's clear, and the new holder posted the cleared announcement again
(with another nonce: Discord does not drop it). Now a save adds its own announcements to the
list as saved, in its transaction, and memory takes the list as saved.
"""

from __future__ import annotations

import json

import pytest

from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import first_line, main_of, row, said, settle
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def test_an_announcement_cleared_while_another_process_saves_is_posted_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    seat = live.session.to_act
    with monkeypatch.context() as m:
        m.setattr(main.delivery, "enqueue", lambda live, batch: None)  # Discord slow
        assert (await main.act(live, live.player_ids[seat],
                               GreedyPlayer().choose(live.session.view(seat)))).ok
    turn_end = first_line(live.last_turn)
    # The next player's click reaches the other process, which reads the match ...
    copy = await other.lookup(live.id)
    assert copy is not None and copy.unsent
    # ... as the holder posts the turn's end, and clears it.
    main.delivery.enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
    await settle(world, main)
    assert len(said(world, live, turn_end)) == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    # The move is saved there.
    nxt = copy.session.to_act
    assert (await other.act(copy, copy.player_ids[nxt],
                            GreedyPlayer().choose(copy.session.view(nxt)))).ok
    await settle(world, main, other)
    assert len(said(world, live, turn_end)) == 1
