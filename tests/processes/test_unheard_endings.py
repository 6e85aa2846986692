"""A match's end, or the time-up question's answer, whose COMMIT went through while the bot was
told it failed (``tests.unheard``), on SQLite and PostgreSQL: a resignation, a forfeit by the
clock, a claim of the win and "keep waiting" are carried on as saved, at once
(``cogs.umtali.unheard``)."""

from __future__ import annotations

import json
import logging

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import APOLOGY
from tests.discord_helpers import World, custom_ids, start_match, thread_of
from tests.processes.helpers import first_line, main_of, results, row, said, settle
from tests.processes.test_unheard_moves import words
from tests.time_control_helpers import button, time_up
from tests.unheard import MAYBE, lose_answer

#: The statement only an end's save makes (a move's too, which these tests make none of).
END = "INSERT INTO session_results"
#: "Keep waiting"'s one save: the question forgotten with the new deadline (``set_deadline``'s
#: ``answered``), only on the clock stopped as saved.
KEEP = "question = '', owner = ?, lease_until = ?, stood_since = NULL WHERE id = ? "\
    "AND version = ? AND status = 'active' AND deadline IS NULL"


async def test_a_resignation_saved_unheard_is_carried_on_as_saved(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    lost = lose_answer(monkeypatch, main.store.db, END)
    done = await world.alice.click(ask.response, custom_id=yes)
    await settle(world, main)
    assert lost.answers == 1
    assert any("You resigned" in w for w in words(done)), words(done)
    assert live.over and live.session.winner == 1
    assert [r["match_id"] for r in await results(world)] == [live.id]
    assert json.loads((await row(world, live.id))["unsent"]) == []
    assert len(said(world, live, first_line(live.last_turn))) == 1
    assert not main.tracked(live.id)


async def test_a_forfeit_saved_unheard_is_announced_at_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    assert live.deadline is not None
    lose_answer(monkeypatch, main.store.db, END)
    await main.check_timers(now=live.deadline + LATE + 1)
    await settle(world, main)
    assert live.over
    assert len(said(world, live, "timed out")) == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    assert [r["match_id"] for r in await results(world)] == [live.id]


@pytest.mark.parametrize("claim", [True, False])
async def test_a_time_up_answer_saved_unheard_is_carried_on_as_saved(
        world: World, monkeypatch: pytest.MonkeyPatch, claim: bool) -> None:
    live, question = await time_up(world)
    main = main_of(world)
    absent = live.session.to_act
    waiting = world.bob if live.player_ids[1 - absent] == world.bob.user.id else world.alice
    lost = lose_answer(monkeypatch, main.store.db, END if claim else KEEP)
    clicked = await waiting.click(question, custom_id=button(question,
                                                            "claim" if claim else "wait"))
    await settle(world, main)
    assert lost.answers == 1
    assert not any(APOLOGY[:20] in w for w in words(clicked)), words(clicked)
    saved = await row(world, live.id)
    shown = next(m for m in thread_of(world, live).history() if m.id == question.id).content
    if claim:
        assert live.over and live.session.winner == 1 - absent
        assert "claimed the win" in shown
        assert [r["match_id"] for r in await results(world)] == [live.id]
        assert json.loads(saved["unsent"]) == []
    else:
        # The absent player's clock runs again, in memory as saved: the next check judges it.
        assert not live.over and "keeps waiting" in shown
        assert live.deadline is not None and live.deadline == saved["deadline"]


async def test_keep_waiting_unheard_and_unread_runs_the_clock_after_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live, question = await time_up(world)
    main = main_of(world)
    absent = live.session.to_act
    waiting = world.bob if live.player_ids[1 - absent] == world.bob.user.id else world.alice
    lost = lose_answer(monkeypatch, main.store.db, KEEP, reads_fail=1)
    clicked = await waiting.click(question, custom_id=button(question, "wait"))
    assert lost.reads == 1 and any(MAYBE in w for w in words(clicked)), words(clicked)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # Not known to be saved: the clock stays stopped here, as it was.
    assert live.deadline is None
    saved = (await row(world, live.id))["deadline"]
    assert saved is not None
    # The next check reads it: the absent player's clock runs here as saved, so that its end
    # is judged (the match stood still for good before, the clock stopped in memory alone).
    await main.check_timers(now=world.clock.now + 1)
    await settle(world, main)
    assert live.deadline == saved and not live.over
    await main.check_timers(now=saved + LATE + 1)
    await settle(world, main)
    assert live.deadline is None and (await row(world, live.id))["deadline"] is None
    assert len(said(world, live, "time for this turn is up")) == 2
