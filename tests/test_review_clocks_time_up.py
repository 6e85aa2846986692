"""A correspondence turn's time is up (``cogs/umtali/time_out.py``) with the match's thread
deleted and the absent player's DMs closed: losing the channel abandons the match (the absent
player can be told nothing), and the waiting player is not then sent, in a new DM that
notifies, a question to claim the win of a match already abandoned. SimCord."""

from __future__ import annotations

from pathlib import Path

from cogs.umtali.clock_state import LATE
from tests.discord_helpers import World, flush, player, start_match
from tests.test_faults_channel import _lose_thread
from tests.test_faults_timers import db_row

ASKED = "time for this turn is up"


async def test_a_match_abandoned_as_its_question_is_posted_asks_nobody(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    # The absent player's DMs closed since the match began; now the thread is deleted.
    await svc.store.set_dm_refused(live.id, absent)
    live.dm_refused[absent] = True
    _lose_thread(world, live)
    deadline = live.deadline
    assert deadline is not None
    for k in range(1, 4):
        await svc.check_timers(now=deadline + LATE + k)
        await flush(world)
    assert live.abandoned and db_row(db_path, live.id)["how"] == "abandoned"
    assert not [m for m in waiting.user.dm_channel.history() if ASKED in m.content]
    assert db_row(db_path, live.id)["question"] == ""
