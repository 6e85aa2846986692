"""A claim's bring-in whose ``adopt`` fails halfway (a bug, after the resume was saved): the
match is held here all the same (``Claims._brought_in``), and what its dead holder saved and
never posted (a turn's announcement, ``unsent``) is posted now. It waited for the next move
before, the channel not told whose turn it is, nor the table brought up to date. SimCord,
virtual time, SQLite and PostgreSQL."""

from __future__ import annotations

import json
import logging

import pytest

from cogs.umtali import owners
from cogs.umtali.claims import LEASE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, thread_of
from tests.processes.helpers import checked, kill, row, settle, turn_played


async def test_a_claim_whose_adopt_fails_still_posts_the_saved_announcement(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    live, main = await checked(world, time_control="normal")
    # The holder's delivery stopped (killed as it saved): the turn played through it is
    # saved, its announcement never posted.
    await main.delivery.close()
    await turn_played(world, main, live)
    unsent = json.loads((await row(world, live.id))["unsent"])
    assert unsent, "nothing was left to announce"
    await kill(main)
    world.clock.advance(LEASE + 1)
    failed: list[int] = []

    def failing(svc: MatchService, copy: LiveMatch) -> None:
        failed.append(copy.id)
        raise RuntimeError("the time owed could not be worked out")

    monkeypatch.setattr(owners, "owe_taken", failing)
    await other.check_timers()  # the claim: held there, its adopt failing halfway
    monkeypatch.undo()
    await settle(world, other)
    await other.flush()
    await world.env.settle()
    assert failed == [live.id] and live.id in other.matches
    posted = [m.content for m in thread_of(world, live).history() if m.content]
    assert all(any(text in p for p in posted) for text in unsent), \
        f"the saved announcement was not posted: {unsent}"
    assert json.loads((await row(world, live.id))["unsent"]) == []
    warned = [r.getMessage() for r in caplog.records if f"match {live.id}" in r.getMessage()]
    assert len(warned) == 1 and "time owed" in warned[0], warned
