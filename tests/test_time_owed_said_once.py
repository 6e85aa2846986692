"""Time owed to running turns (the bot stood still, or was cut off from Discord) is paid at
each check of the clock until it is saved (once noted). With PostgreSQL out of reach each
payment failed, a WARNING per match at every check (a second) for as long as the outage lasted.
One WARNING when it begins, and one line when it is paid."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.give_back import owe
from tests.discord_helpers import World, flush, start_match
from tests.pg_server import PgServer
from tests.test_discord_postgres import make_bot as make_bot  # the bot on PostgreSQL
from tests.test_review24_database_down import out_of_reach

OWED = "could not be given back"


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_time_owed_and_not_saved_is_said_once(
        world: World, postgres_server: PgServer, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=60)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    now = world.clock.now
    await svc.check_timers(now)
    caplog.set_level(logging.INFO)
    caplog.clear()
    deadline = live.deadline
    # As the bot standing still 20 s notes it (``standing_still``): owed, paid by the checks.
    owe(svc, {live.id: (deadline, 20.0)})
    async with out_of_reach(postgres_server):
        for second in range(1, 6):
            await svc.check_timers(now + second)
    assert live.id in svc.clock_state.owed
    # (Paid only once noted, ``give_back.pay_noted``: the note fails first, and is the one
    # failure said.)
    failed = [r for r in caplog.records
              if OWED in r.getMessage() or "heartbeat" in r.getMessage()]
    assert [r.levelname for r in failed if r.levelno >= logging.INFO] == ["WARNING"], \
        [(r.levelname, r.getMessage()) for r in failed]
    caplog.clear()
    await svc.check_timers(now + 7)
    assert live.id not in svc.clock_state.owed and live.deadline == deadline + 20.0
    paid = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO
            and f"match {live.id}" in r.getMessage() and "given back" in r.getMessage()]
    assert len(paid) == 1, [r.getMessage() for r in caplog.records]
