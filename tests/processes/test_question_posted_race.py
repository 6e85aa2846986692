"""The absent player's move saved through another process while the holder is posting the
time-up question: the holder's copy is stale, and its question must not be saved standing over
the move's fresh deadline (its buttons taken off, the next question saved)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import reminders, time_out
from cogs.umtali.clock_state import LATE
from cogs.umtali.question import Question
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, start_match
from tests.processes.helpers import main_of, row, said, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

ASKED = "time for this turn is up"


async def test_a_move_elsewhere_while_the_question_is_posted_withdraws_it(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    real = reminders.post

    async def posting(*args: Any, **kwargs: Any) -> Any:
        # The clock stopped by ``main``; while its question is on its way, the absent
        # player's move within the turn reaches the other process.
        fresh = await other.lookup(live.id)
        assert fresh is not None
        move = GreedyPlayer().choose(fresh.session.view(absent))
        assert move.kind is not MoveKind.DISCARD
        assert (await other.act(fresh, fresh.player_ids[absent], move, fresh.version)).ok
        return await real(*args, **kwargs)

    monkeypatch.setattr(time_out, "post", posting)
    await main.check_timers(now=live.deadline + LATE + 1)
    monkeypatch.setattr(time_out, "post", real)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["deadline"] is not None and saved["owner"] == "p2"
    # The question is not standing as saved: none, or withdrawn.
    asked = Question.loads(saved["question"])
    assert asked is None or asked.withdrawn, asked
    # And the members see it withdrawn: no buttons left on it.
    [shown] = said(world, live, ASKED)
    assert not custom_ids(shown), shown.content


async def test_after_that_race_the_next_question_is_saved(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same race, then the fresh time runs out at the holder (``p2``): its question is
    the one saved, not the stale one from before the move (which a restart would take as
    standing, its old buttons answerable)."""
    import asyncio

    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    real = reminders.post

    async def posting(*args: Any, **kwargs: Any) -> Any:
        fresh = await other.lookup(live.id)
        assert fresh is not None
        move = GreedyPlayer().choose(fresh.session.view(absent))
        assert (await other.act(fresh, fresh.player_ids[absent], move, fresh.version)).ok
        return await real(*args, **kwargs)

    monkeypatch.setattr(time_out, "post", posting)
    await main.check_timers(now=live.deadline + LATE + 1)
    monkeypatch.setattr(time_out, "post", real)
    await settle(world, main, other)
    deadline = (await row(world, live.id))["deadline"]
    for k in range(3):
        now = deadline + LATE + 1 + k
        await asyncio.gather(main.check_timers(now=now), other.check_timers(now=now))
        await settle(world, main, other)
    asked = said(world, live, ASKED)
    assert len(asked) == 2
    saved = Question.loads((await row(world, live.id))["question"])
    assert saved is not None and saved.message_id == asked[-1].id, saved
