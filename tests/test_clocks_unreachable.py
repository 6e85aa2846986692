"""A correspondence turn's time is up and nobody can be asked (``cogs/umtali/time_out.py``):
the match's thread deleted and the waiting player's DMs closed since the match began. The bot
notes both as a delivery would, and the match, reaching nobody, is abandoned; it does not try
again every second (each a refused request Discord counts against the bot). SimCord."""

from __future__ import annotations

from pathlib import Path

from cogs.umtali.clock_state import LATE
from tests.discord_helpers import World, custom_ids, flush, player, start_match
from tests.test_faults_channel import _lose_thread
from tests.test_faults_timers import db_row

CLOSED = {"status": 403, "code": 50007, "message": "Cannot send messages to this user"}


async def test_a_time_up_question_nobody_can_get_abandons_the_match(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    _lose_thread(world, live)
    world.env.inject_error("POST", f"/channels/{waiting.user.dm_channel.id}/messages",
                           times=None, **CLOSED)  # type: ignore[arg-type]
    deadline = live.deadline
    assert deadline is not None
    since = len(world.env.http_requests)
    for k in range(1, 6):
        await svc.check_timers(now=deadline + LATE + k)
        await flush(world)
    assert live.channel_lost and live.dm_refused[1 - absent]
    assert live.abandoned and db_row(db_path, live.id)["how"] == "abandoned"
    refused = [r for r in world.env.http_requests[since:]
               if r.path.startswith((f"/channels/{live.channel_id}/",
                                     f"/channels/{waiting.user.dm_channel.id}/"))]
    assert len(refused) <= 3, [(r.method, r.path) for r in refused]


async def test_a_deleted_thread_at_the_time_up_asks_in_dms_and_the_match_goes_on_there(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    _lose_thread(world, live)
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.channel_lost and db_row(db_path, live.id)["channel_lost"] == 1
    asked = [m for m in waiting.user.dm_channel.history()
             if "time for this turn is up" in m.content and custom_ids(m)]
    assert len(asked) == 1 and not live.over and live.deadline is None
