"""What the time-control tests share (over SimCord, time injected through the service's
clock): the deadline as saved, a turn played out, the table's text, a restart after the bot
was offline a while, and a correspondence turn run out with its question."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    play_out,
    player,
    start_match,
    thread_of,
)
from tests.test_faults_channel import _lose_thread
from tests.test_faults_timers import db_row, to_turn_end

if TYPE_CHECKING:
    from bot import UmtaliBot
    from cogs.umtali.service import MatchService


def db_deadline(db_path: Path, match_id: int) -> float | None:
    """The match's deadline as saved."""
    deadline: float | None = db_row(db_path, match_id)["deadline"]
    return deadline


async def end_turn(world: World, live: LiveMatch) -> int:
    """The player to act plays out their turn (at the clock's time); their seat."""
    seat = live.session.to_act
    await to_turn_end(world, live)
    await play_out(world, live, moves=1)
    assert live.session.to_act != seat or live.over
    return seat


def table_text(world: World, live: LiveMatch) -> str:
    """The text of the match's table as last posted or edited."""
    assert live.table_message_id is not None
    message = next(m for m in thread_of(world, live).history()
                   if m.id == live.table_message_id)
    return str(message.embeds[0].description)


async def played_in_dms(world: World, **options: Any) -> LiveMatch:
    """A match started with ``options`` whose thread was then deleted: it goes on in DMs,
    each player's DM panel carrying the table."""
    live = await start_match(world, **options)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    _lose_thread(world, live)
    svc.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost and not live.over
    return live


async def restarted_after(world: World, make_bot: Callable[[], UmtaliBot], live: LiveMatch,
                          offline: float) -> tuple[MatchService, LiveMatch]:
    """The bot stopped at the clock's time (its last heartbeat then) and started again
    ``offline`` seconds later; the new bot's clock checked once: its service, and ``live`` as
    it brought it back."""
    assert world.bot.matches is not None
    await heartbeat(world.bot.matches)
    world.clock.advance(offline)
    again = make_bot()
    await world.env.restart_bot(again)
    svc = again.matches
    assert svc is not None
    restored = svc.matches[live.id]
    await svc.check_timers()
    await flush(world)
    return svc, restored


async def time_up(world: World) -> tuple[LiveMatch, Any]:
    """A correspondence match whose first turn ran out: the match, and the question."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert not live.over and live.deadline is None
    question = thread_of(world, live).history()[-1]
    assert "time for this turn is up" in question.content
    assert f"<@{live.player_ids[1 - absent]}>" in question.content
    return live, question


@dataclass(frozen=True)
class Deleted:
    """A time-up question deleted by a moderator (the bot hears nothing of it)."""

    svc: MatchService
    live: LiveMatch
    question: Any
    #: The waiting player, whom it asked.
    waiting: Any
    thread: Any


async def question_deleted(world: World) -> Deleted:
    """``time_up``, then its question deleted."""
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    thread = thread_of(world, live)
    world.env.backend.delete_message(question.channel.id, question.id)
    assert not any(m.id == question.id for m in thread.history())
    return Deleted(svc, live, question, player(world, 1 - live.session.to_act), thread)


async def table_again_asks_anew(world: World, deleted: Deleted) -> Any:
    """The waiting player posts the table again (``/umtali table``); at the checks after it,
    the deleted question is asked anew, once: that question."""
    again = await deleted.waiting.slash(deleted.thread, "umtali table")
    await flush(world)
    assert again.acknowledged
    for _ in range(2):
        world.clock.advance(1)
        await deleted.svc.check_timers(now=world.clock.now)
        await flush(world)
    asked = [m for m in deleted.thread.history()
             if "time for this turn is up" in m.content and custom_ids(m)]
    assert len(asked) == 1 and asked[0].id != deleted.question.id, \
        [m.content for m in deleted.thread.history()]
    return asked[0]


def button(question: Any, action: str) -> str:
    """The custom id of the question's button for ``action`` (claim, wait)."""
    return next(c for c in custom_ids(question) if c.endswith(":" + action))


def question_unsaved_once(monkeypatch: pytest.MonkeyPatch, svc: MatchService) -> list[int]:
    """The time-up question's first save fails (the database busy), the next ones go
    through: the list of failed saves (one, once it failed)."""
    leases = svc.owners.leases
    real = leases.set_question
    failed: list[int] = []

    async def unsaved(*args: Any, **kwargs: Any) -> bool:
        if not failed:
            failed.append(1)
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(leases, "set_question", unsaved)
    return failed


async def time_up_in_dms(world: World) -> tuple[LiveMatch, int, Any]:
    """A correspondence match played in DMs (its thread deleted) whose turn ran out: the
    match, the absent seat, and the question in the waiting player's DMs."""
    live = await played_in_dms(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    absent = live.session.to_act
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    question = next(m for m in reversed(player(world, 1 - absent).user.dm_channel.history())
                    if "time for this turn is up" in m.content)
    return live, absent, question


def dm_ids(world: World, seat: int) -> list[int]:
    """The ids of the messages in the seat's DMs."""
    return [m.id for m in player(world, seat).user.dm_channel.history()]


async def restarted_telling(world: World, make_bot: Callable[[], UmtaliBot], live: LiveMatch,
                            seat: int, before: list[int]) -> LiveMatch:
    """The bot restarted: the seat was told by one new panel since ``before`` (its DMs' ids),
    the panel it has; ``live`` as brought back."""
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    await flush(world)
    restored = again.matches.matches[live.id]
    new = [i for i in dm_ids(world, seat) if i not in before]
    assert new == [restored.dm_message_ids[seat]], "no new panel: the seat was never told"
    return restored
