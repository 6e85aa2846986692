"""An end learned by reading back a save whose answer was lost (the read back failing at
first, the match doubted) is logged once, as any end (review168: ``end_log`` never said it).
SimCord, a real SQLite file."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World, flush, start_match
from tests.unheard import lose_answer

FORFEIT = "UPDATE matches SET status = 'finished', finished_at = ?, winner_seat = ?, how = ?"


async def test_an_end_learned_by_reading_back_is_logged_once(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=30)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await svc.check_timers(world.clock.now)
    caplog.set_level(logging.INFO, logger="cogs.umtali.end_log")
    late = live.deadline + 10
    # The forfeit saved, its answer lost and the read back failing: doubted, read back later.
    lost = lose_answer(pytest.MonkeyPatch(), svc.store.db, FORFEIT, reads_fail=1)
    await svc.check_timers(late - 1)
    assert lost.answers == lost.reads == 1 and live.doubted and not live.over
    await svc.check_timers(late + 1)
    await svc.check_timers(late + 2)
    assert not live.doubted and live.over
    ended = [r.getMessage() for r in caplog.records if " ended: " in r.getMessage()]
    assert len(ended) == 1 and ended[0].startswith(f"match {live.id} ended: "), ended
