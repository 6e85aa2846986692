"""By correspondence, the reminder before a turn's end and the DM telling a player their turn
has started, against Discord failing for now (a 5xx): what could not be sent is tried again,
and sent once (SimCord, virtual time)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import HOUR
from tests.discord_helpers import World, flush, player, start_match, thread_of
from tests.test_faults_opening import server_errors  # noqa: F401  (a fixture)
from tests.test_faults_timers import db_row
from tests.time_control_helpers import button, end_turn, restarted_after, time_up
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

TOLD = "Your turn in the Umtali match"
KEPT = "keeps waiting for your move in the Umtali match"


def _dms(world: World, seat: int) -> list[str]:
    return [m.content for m in player(world, seat).user.dm_channel.history() if m.content]


def _reminders(world: World, live: LiveMatch, seat: int) -> int:
    in_dms = sum(t.startswith("Reminder") for t in _dms(world, seat))
    said = sum("your turn ends" in m.content for m in thread_of(world, live).history())
    return in_dms + said


@pytest.mark.usefixtures("server_errors")
async def test_a_reminder_that_failed_for_now_everywhere_is_sent_at_the_next_check(
        world: World, db_path: Path) -> None:
    live = await start_match(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat, deadline = live.session.to_act, live.deadline
    dm = player(world, seat).user.dm_channel
    # Discord fails for now, in the player's DMs and in the match's channel.
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503, times=1)
    world.env.inject_error("POST", f"/channels/{thread_of(world, live).id}/messages",
                           status=503, times=1)
    await svc.check_timers(now=deadline - 2 * HOUR + 1)
    await flush(world)
    assert _reminders(world, live, seat) == 0
    # Still to come, in memory as in the database.
    assert not live.warned and db_row(db_path, live.id)["warned"] == 0
    await svc.check_timers(now=deadline - 2 * HOUR + 2)
    await flush(world)
    assert _reminders(world, live, seat) == 1
    assert live.warned and db_row(db_path, live.id)["warned"] == 1
    await svc.check_timers(now=deadline - 2 * HOUR + 3)
    await flush(world)
    assert _reminders(world, live, seat) == 1
    assert live.deadline == deadline and not live.over


@pytest.mark.usefixtures("server_errors")
async def test_a_turns_dm_that_failed_for_now_is_sent_at_the_next_check(world: World) -> None:
    live = await start_match(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None
    first = live.session.to_act
    assert sum(TOLD in t for t in _dms(world, 1 - first)) == 0
    dm = player(world, 1 - first).user.dm_channel
    # The turn's DM fails for now (the hand's panel is an edit, and goes through).
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503, times=1)
    await end_turn(world, live)
    await flush(world)
    assert live.session.to_act == 1 - first
    assert sum(TOLD in t for t in _dms(world, 1 - first)) == 0
    await svc.check_timers()
    await flush(world)
    assert sum(TOLD in t for t in _dms(world, 1 - first)) == 1
    await svc.check_timers()
    await flush(world)
    assert sum(TOLD in t for t in _dms(world, 1 - first)) == 1


async def test_a_move_in_the_middle_of_a_turn_does_not_tell_the_turn_again(
        world: World) -> None:
    """A draw or a meld made with ``/umtali play`` (or from the table's My hand panel) brings
    the player's DM panel up to date: it is still the same turn, told once."""
    live = await start_match(world, time_control="correspondence")
    seat = live.session.to_act
    assert sum(TOLD in t for t in _dms(world, seat)) == 1
    move = GreedyPlayer().choose(live.session.view(seat))
    assert move.kind is not MoveKind.DISCARD
    version = live.version
    result = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                             move=str(move))
    assert result.acknowledged
    await flush(world)
    assert live.version == version + 1 and live.session.to_act == seat
    assert sum(TOLD in t for t in _dms(world, seat)) == 1
    # The turn's end tells the next player, once.
    await end_turn(world, live)
    await flush(world)
    assert sum(TOLD in t for t in _dms(world, 1 - seat)) == 1
    # Its turn played, the seat's DM of it is deleted (one stands at most: fix164).
    assert sum(TOLD in t for t in _dms(world, seat)) == 0


async def _mid_turn_move(world: World, live: LiveMatch) -> None:
    """The player to act makes a move within their turn with ``/umtali play``."""
    seat, version = live.session.to_act, live.version
    move = GreedyPlayer().choose(live.session.view(seat))
    assert move.kind is not MoveKind.DISCARD
    result = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                             move=str(move))
    assert result.acknowledged
    await flush(world)
    assert live.version == version + 1 and live.session.to_act == seat


async def test_a_move_within_a_turn_after_a_restart_does_not_tell_the_turn_again(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, time_control="correspondence")
    seat = live.session.to_act
    assert sum(TOLD in t for t in _dms(world, seat)) == 1
    world.clock.advance(HOUR)
    # A quick restart, an hour into the turn.
    _, restored = await restarted_after(world, make_bot, live, 10)
    await _mid_turn_move(world, restored)
    assert sum(TOLD in t for t in _dms(world, seat)) == 1


async def test_a_move_within_a_turn_after_a_gateway_outage_does_not_tell_it_again(
        world: World) -> None:
    live = await start_match(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    gateway_lost(svc, None)
    world.clock.advance(600)
    await gateway_back(svc, None)
    await flush(world)
    await _mid_turn_move(world, live)
    assert sum(TOLD in t for t in _dms(world, seat)) == 1


async def test_another_turns_time_is_told_to_the_absent_player(world: World) -> None:
    """Keep waiting gives the same turn another day: told, as a turn's start is, once."""
    live, question = await time_up(world)
    absent = live.session.to_act
    assert sum(TOLD in t for t in _dms(world, absent)) == 1
    waiting = player(world, 1 - absent)
    world.clock.advance(600)
    kept = await waiting.click(question, custom_id=button(question, "wait"))
    assert kept.acknowledged
    await flush(world)
    assert live.deadline is not None
    # Told as the waiting player's choice, in place of the turn's first DM (one stands).
    assert sum(TOLD in t for t in _dms(world, absent)) == 0
    assert sum(KEPT in t for t in _dms(world, absent)) == 1
    # Told once: a move within the turn tells nothing more.
    await _mid_turn_move(world, live)
    assert sum(TOLD in t for t in _dms(world, absent)) == 0
    assert sum(KEPT in t for t in _dms(world, absent)) == 1
