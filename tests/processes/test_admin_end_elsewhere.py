"""fix132: an admin's ``end-match`` reaching one process frees what another keeps of the match:
its copy in play (dropped at its next renewal, not played on), or its claim of a match whose
bring-in fails at every check (unsettled, its lease renewed for ever): let go. SimCord, on
SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.umtali.claims import WARN_AGAIN
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, end_match_as, manager, start_match
from tests.processes.helpers import drawn_through, main_of, row, said, settle, via
from tests.processes.test_unheard_resumes import RESUME, killed
from tests.unheard import lose_answer

#: The channel's notice (its end names the admin).
ENDED = "ended this match: no result"



async def _ended_by(world: World, svc: MatchService, admin: Any, member: Any) -> str:
    with via(world, svc):
        answer = await end_match_as(world, admin, member=member)
    assert answer.acknowledged and answer.response.ephemeral, answer
    return str(answer.response.content)


async def test_a_copy_held_by_another_process_is_let_go(world: World,
                                                        other: MatchService) -> None:
    boss = manager(world)
    live = await start_match(world)
    main = main_of(world)
    copy = await drawn_through(other, live.id)  # a draw through p2: held there now
    await settle(world, main, other)
    assert other.matches.get(live.id) is copy and (await row(world, live.id))["owner"] == "p2"
    assert "no result" in await _ended_by(world, main, boss, world.alice)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["status"], saved["how"], saved["owner"]) == ("finished", "abandoned", "main")
    assert said(world, live, ENDED)
    world.clock.advance(RENEW_EVERY)
    await other.check_timers()
    await main.check_timers()
    await settle(world, main, other)
    assert not other.tracked(live.id), "the other process kept its copy"
    assert not main.tracked(live.id)


@pytest.mark.parametrize("where", ["here", "elsewhere"])
async def test_a_claim_whose_bring_in_fails_for_ever_is_let_go(
        world: World, other: MatchService, third: MatchService,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        where: str) -> None:
    """p2 takes over the match of a killed process; its turn's resume goes unheard, and the
    row no longer reads (a bad migration): every check brings it in again, and fails. The
    admin's command, reaching p2 itself or p3, ends it by its id."""
    boss = manager(world)
    live, _, _ = await killed(world, other, third)
    lose_answer(monkeypatch, other.store.db, RESUME, reads_fail=1)
    await other.check_timers()
    unsettled = other.owners.claims.unsettled
    assert live.id in unsettled
    async with main_of(world).store.db.transaction() as c:
        await c.execute("UPDATE matches SET state = ? WHERE id = ?", ('{"broken', live.id))
    for _ in range(2):
        world.clock.advance(1)
        await other.check_timers()
    assert live.id in unsettled and (await row(world, live.id))["owner"] == "p2"
    said_to_admin = await _ended_by(world, other if where == "here" else third, boss,
                                    world.bob)
    assert "no result" in said_to_admin, said_to_admin
    saved = await row(world, live.id)
    assert (saved["status"], saved["how"]) == ("finished", "abandoned")
    assert said(world, live, ENDED)
    world.clock.advance(RENEW_EVERY)
    await other.check_timers()
    await third.check_timers()
    # p2 lets its claim go (at once if it ended it), its lease no longer renewed.
    assert live.id not in unsettled
    leased = (await row(world, live.id))["lease_until"]
    world.clock.advance(RENEW_EVERY)
    await other.check_timers()
    assert (await row(world, live.id))["lease_until"] == leased
    # Its failures, counted to space their warnings, are forgotten once that wait is over.
    world.clock.advance(WARN_AGAIN)
    await other.check_timers()
    await third.check_timers()
    assert not other.tracked(live.id) and not third.tracked(live.id)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
