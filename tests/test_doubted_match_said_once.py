"""The clock ends a turn run out, and the save's outcome is unknown (its answer lost, and the
read back failed): the match is doubted, and each check of the clock reads it back first.
Should PostgreSQL then be out of reach, each of those reads fails while the server is away,
and each was a WARNING, a second per match for as long as the outage lasted. One WARNING when
it begins, and one line when the match is read back. (Out of reach before the forfeit, the
clocks stand still and nothing is saved to doubt: ``cogs.umtali.db_outage``.)"""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World, flush, start_match
from tests.pg_server import PgServer
from tests.test_discord_postgres import make_bot as make_bot  # the bot on PostgreSQL
from tests.test_review24_database_down import out_of_reach
from tests.unheard import lose_answer

DOUBT = "whether its last save went through could not be read"
FORFEIT = "UPDATE matches SET status = 'finished', finished_at = ?, winner_seat = ?, how = ?"


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_a_doubted_match_read_back_in_vain_is_said_once(
        world: World, postgres_server: PgServer, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=30)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await svc.check_timers(world.clock.now)
    caplog.set_level(logging.INFO)
    caplog.clear()
    late = live.deadline + 10
    lost = lose_answer(pytest.MonkeyPatch(), svc.store.db, FORFEIT, reads_fail=1)
    await svc.check_timers(late - 1)
    assert lost.answers == lost.reads == 1 and live.doubted
    async with out_of_reach(postgres_server):
        for second in range(5):
            await svc.check_timers(late + second)
    assert live.doubted
    doubts = [r for r in caplog.records if DOUBT in r.getMessage()]
    # (The outage, heard from the leases first, may stop the clock's work before any read.)
    assert [r.levelname for r in doubts] in ([], ["WARNING"]), \
        [(r.levelname, r.getMessage()) for r in doubts]
    caplog.clear()
    await svc.check_timers(late + 6)
    assert not live.doubted
    back = [r.getMessage() for r in caplog.records
            if r.levelno == logging.INFO and f"match {live.id}" in r.getMessage()
            and "read back" in r.getMessage()]
    # Read back once, and said so only if its failure was said.
    assert len(back) == len(doubts), [r.getMessage() for r in caplog.records]
    assert live.over  # the forfeit had gone through
