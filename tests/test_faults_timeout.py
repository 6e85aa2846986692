"""A correspondence turn's time-up question against failures (``cogs/umtali/time_out.py``,
its answer ``cogs/umtali/time_up_answer.py``): a process killed between stopping the clock and
asking, a post and a save both failing, the match moving on while it is asked, an answer in
DMs, and an answer on a busy database."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali import reminders, time_out
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.time_control import DAY
from tests.discord_helpers import World, custom_ids, flush, player, start_match, thread_of
from tests.test_faults_timers import db_row, to_turn_end
from tests.time_control_helpers import button, db_deadline, question_unsaved_once

ASKED = "time for this turn is up"


def _asked(world: World, live: LiveMatch) -> int:
    return sum(ASKED in m.content for m in thread_of(world, live).history())


async def _correspondence(world: World) -> tuple[MatchService, LiveMatch]:
    """The bot's service and a match ada and ben play by correspondence."""
    svc = world.bot.matches
    assert svc is not None
    return svc, await start_match(world, time_control="correspondence")


async def test_a_process_killed_before_asking_leaves_the_question_to_its_successor(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    svc, live = await _correspondence(world)
    absent = live.session.to_act
    # The clock is stopped in the database, and the process killed before it asked anyone.
    assert await svc.owners.leases.stop_clock(live.id, live.version)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    for k in range(1, 4):
        await again.matches.check_timers(now=world.clock.now + k * DAY)
        await flush(world)
    # Asked once; the question saved, the clock stopped for the answer.
    assert _asked(world, restored) == 1 and not restored.over
    assert restored.deadline is None and db_deadline(db_path, live.id) is None
    assert db_row(db_path, live.id)["question"] != ""
    # Another restart does not ask again: the question is saved.
    third = make_bot()
    await world.env.restart_bot(third)
    assert third.matches is not None
    await third.matches.check_timers(now=world.clock.now + 5 * DAY)
    await flush(world)
    assert _asked(world, restored) == 1
    # And it answers.
    question = next(m for m in thread_of(world, restored).history() if ASKED in m.content)
    claimed = await player(world, 1 - absent).click(question,
                                                    custom_id=button(question, "claim"))
    assert claimed.acknowledged
    await flush(world)
    assert db_row(db_path, live.id)["how"] == "timed out"


async def test_a_question_neither_posted_nor_undone_is_asked_at_the_next_check(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, live = await _correspondence(world)
    absent = live.session.to_act
    assert live.deadline is not None
    real_post, real_set = reminders.post, svc.store.set_deadline

    async def unposted(*args: Any, **kwargs: Any) -> None:
        return None

    async def unsaved(*args: Any, **kwargs: Any) -> bool:
        raise sqlite3.OperationalError("database is locked")

    # The channel fails the post, the waiting player's DMs are closed, and the clock's
    # restart fails too.
    monkeypatch.setattr(time_out, "post", unposted)
    monkeypatch.setattr(svc.store, "set_deadline", unsaved)
    live.dm_refused[1 - absent] = True
    now = live.deadline + LATE + 1
    await svc.check_timers(now=now)
    assert live.deadline is None and db_deadline(db_path, live.id) is None
    monkeypatch.setattr(time_out, "post", real_post)
    monkeypatch.setattr(svc.store, "set_deadline", real_set)
    for k in range(1, 4):
        await svc.check_timers(now=now + k)
        await flush(world)
    assert _asked(world, live) == 1 and db_row(db_path, live.id)["question"] != ""
    assert live.deadline is None and not live.over


async def test_a_match_that_moved_on_while_asking_is_not_said_asked(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    svc, live = await _correspondence(world)
    absent = live.session.to_act
    await to_turn_end(world, live)
    assert live.deadline is not None and live.session.to_act == absent

    async def moved_on(*args: Any, **kwargs: Any) -> None:
        # While the question is being posted, the absent player ends their turn; the post
        # fails.
        from umtali.players import GreedyPlayer
        move = GreedyPlayer().choose(live.session.view(absent))
        outcome = await svc.act(live, live.player_ids[absent], move, live.version)
        assert outcome.ok
        return None

    monkeypatch.setattr(time_out, "post", moved_on)
    live.dm_refused[1 - absent] = True
    caplog.set_level(logging.INFO, logger="cogs.umtali.time_out")
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    said = [r.getMessage() for r in caplog.records if r.name == "cogs.umtali.time_out"]
    assert any("moved on before" in m for m in said), said
    assert not any(" asked" in m and "time is up" in m for m in said), said
    assert live.session.to_act != absent and live.deadline is not None


async def test_an_answer_in_dms_keeps_the_waiting_players_language(
        world: World, locales: dict[int, str]) -> None:
    svc, live = await _correspondence(world)
    waiting = player(world, 1 - live.session.to_act)
    locales[waiting.id] = "ru"
    await svc.prefs.saw_locale(waiting.id, "ru")
    # (Their DM panel drawn again in Russian, beside: done before the channel is lost, which
    # this test sets in memory alone.)
    await flush(world)
    live.channel_lost = True
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    question = [m for m in waiting.user.dm_channel.history() if custom_ids(m)][-1]
    assert "время хода" in question.content
    answered = await waiting.user.click(question, custom_id=button(question, "wait"))
    assert answered.acknowledged
    await flush(world)
    shown = next(m for m in waiting.user.dm_channel.history() if m.id == question.id)
    assert "время хода" in shown.content and "time for this turn" not in shown.content
    assert "keeps waiting" not in shown.content and not custom_ids(shown)
    assert live.deadline is not None




async def test_a_question_asked_but_not_saved_is_not_asked_again_here(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, live = await _correspondence(world)
    absent = live.session.to_act
    assert live.deadline is not None
    failed = question_unsaved_once(monkeypatch, svc)
    now = live.deadline + LATE + 1
    for k in range(4):
        await svc.check_timers(now=now + k)
        await flush(world)
    assert failed == [1] and db_row(db_path, live.id)["question"] == ""
    assert _asked(world, live) == 1 and live.deadline is None
    # Its buttons still answer.
    question = next(m for m in thread_of(world, live).history() if ASKED in m.content)
    waited = await player(world, 1 - absent).click(question, custom_id=button(question, "wait"))
    assert waited.acknowledged and not waited.ephemeral
    await flush(world)
    assert live.deadline is not None and db_deadline(db_path, live.id) == live.deadline
