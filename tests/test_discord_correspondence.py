"""Issue 12, the correspondence time control: the turn's DM, the reminder before the deadline,
and when the time is up the question to the waiting player, who claims the win (once, however
many claims race) or keeps waiting; the question outlives a restart. Over SimCord, with time
injected through the service's clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.clock_state import LATE
from cogs.umtali.outbox import Batch
from cogs.umtali.time_control import DAY, HOUR
from cogs.umtali.time_up_answer import decide
from tests.discord_helpers import World, flush, player, start_match, thread_of
from tests.test_faults_timers import db_row
from tests.time_control_helpers import (
    button,
    db_deadline,
    end_turn,
    played_in_dms,
    table_text,
    time_up,
    time_up_in_dms,
)


def _dms(world: World, seat: int) -> list[str]:
    return [m.content for m in player(world, seat).user.dm_channel.history() if m.content]


async def test_correspondence_tells_the_turn_and_reminds_before_the_deadline(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    first = live.session.to_act
    assert any("Your turn in the Umtali match" in t for t in _dms(world, first))
    assert not any("Your turn in the Umtali match" in t for t in _dms(world, 1 - first))
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline - 2 * HOUR - 1)
    assert not live.warned
    await svc.check_timers(now=live.deadline - 2 * HOUR + 1)
    await flush(world)
    assert live.warned
    [reminder] = [t for t in _dms(world, first) if t.startswith("Reminder")]
    assert "may claim the session" in reminder
    # Nothing in the channel threatens a forfeit.
    assert not any("forfeit" in m.content for m in thread_of(world, live).history())
    # The turn ends; the next player is told by DM, once.
    await end_turn(world, live)
    await flush(world)
    told = [t for t in _dms(world, 1 - first) if "Your turn in the Umtali match" in t]
    assert len(told) == 1
    assert live.deadline == pytest.approx(world.clock.now + DAY, abs=1)


async def test_correspondence_asks_and_the_claim_wins_once(world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    assert db_deadline(db_path, live.id) is None
    assert "may claim the session or keep waiting" in table_text(world, live)
    # Nothing more happens at later checks: asked once, and nobody forfeits on the clock.
    await svc.check_timers(now=world.clock.now + 3 * DAY)
    await flush(world)
    assert not live.over
    assert sum("time for this turn is up" in m.content
               for m in thread_of(world, live).history()) == 1
    # The absent player cannot claim for the other.
    wrong = await player(world, absent).click(question, custom_id=button(question, "claim"))
    assert wrong.ephemeral and "Only" in wrong.response.content
    # The claim wins; a second click after it finds nothing left to claim.
    claimed = await waiting.click(question, custom_id=button(question, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    assert live.over and live.session.winner == 1 - absent
    [result] = await svc.store.session_results(world.guild.id)
    assert result["how"] == "timed out" and result["winner_seat"] == 1 - absent
    shown = next(m for m in thread_of(world, live).history() if m.id == question.id)
    assert "claimed the win" in shown.content and shown.components == []


async def test_two_claims_racing_give_one_result(world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, _ = await time_up(world)
    absent, version = live.session.to_act, live.version
    # SimCord plays one click at a time: the race is run on what each click calls.
    results = await asyncio.gather(decide(svc, live, version, True),
                                   decide(svc, live, version, True),
                                   decide(svc, live, version, False))
    await flush(world)
    assert results.count(True) == 1 and results[0]
    assert live.over and live.session.winner == 1 - absent and live.deadline is None
    [result] = await svc.store.session_results(world.guild.id)
    assert result["how"] == "timed out"
    assert db_row(db_path, live.id)["status"] == "finished"


async def test_keep_waiting_gives_another_turn_and_the_session_goes_on(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    world.clock.advance(600)
    kept = await waiting.click(question, custom_id=button(question, "wait"))
    assert kept.acknowledged and not kept.ephemeral
    await flush(world)
    assert live.deadline == pytest.approx(world.clock.now + DAY, abs=1)
    assert db_deadline(db_path, live.id) == live.deadline
    shown = next(m for m in thread_of(world, live).history() if m.id == question.id)
    assert "keeps waiting" in shown.content and shown.components == []
    # The absent player moves at last: the session goes on, the next player on the clock.
    await end_turn(world, live)
    assert not live.over and live.session.to_act == 1 - absent
    assert live.deadline == pytest.approx(world.clock.now + DAY, abs=1)
    # When that player's time is up in turn, they are asked about anew.
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    again = thread_of(world, live).history()[-1]
    assert again.id != question.id and f":{live.version}:claim" in button(again, "claim")
    assert f"<@{live.player_ids[absent]}>" in again.content and not live.over


async def test_the_question_outlives_a_restart(world: World, db_path: Path,
                                               make_bot: Callable[[], UmtaliBot]) -> None:
    live, question = await time_up(world)
    absent = live.session.to_act
    world.clock.advance(3600)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    # Not asked again, nor forfeited: the clock stays stopped for the waiting player's answer.
    await again.matches.check_timers(now=world.clock.now + DAY)
    await flush(world)
    assert restored.deadline is None and not restored.over
    assert sum("time for this turn is up" in m.content
               for m in thread_of(world, restored).history()) == 1
    claimed = await player(world, 1 - absent).click(question,
                                                    custom_id=button(question, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    assert restored.over and restored.session.winner == 1 - absent
    assert db_row(db_path, live.id)["how"] == "timed out"


async def test_a_turn_of_a_match_played_in_dms_is_told_by_its_new_panel_alone(
        world: World) -> None:
    """With the match's channel lost (deleted), a turn's start sends the player a new DM
    panel, which notifies and says the turn is theirs and when it ends: the correspondence DM
    telling the turn came as well, two notifications for one turn."""
    live = await played_in_dms(world, time_control="correspondence")
    first = live.session.to_act
    dm = player(world, 1 - first).user.dm_channel
    before = {m.id for m in dm.history()}
    await end_turn(world, live)
    await flush(world)
    new = [m for m in dm.history() if m.id not in before]
    assert [m.id for m in new] == [live.dm_message_ids[1 - first]], [m.content for m in new]
    shown = " ".join(str(e.description) for e in new[0].embeds)
    assert "Your turn" in shown and "Turn ends" in shown, shown


async def test_the_reminder_of_a_match_played_in_dms_points_to_no_lost_channel(
        world: World) -> None:
    live = await played_in_dms(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    await svc.check_timers(now=live.deadline - 2 * HOUR + 1)
    await flush(world)
    [reminder] = [t for t in _dms(world, seat) if t.startswith("Reminder")]
    assert f"<#{live.channel_id}>" not in reminder, reminder
    assert "your hand here" in reminder, reminder


async def test_keep_waiting_in_a_match_played_in_dms_tells_the_absent_player_by_a_new_panel(
        world: World) -> None:
    """Played in DMs, "keep waiting" gives the absent player another turn's time: told as a
    turn's start is, by a new DM panel (it notifies; an edit does not), as the correspondence
    DM tells it where the channel is not lost."""
    live, absent, question = await time_up_in_dms(world)
    svc = world.bot.matches
    assert svc is not None
    dm = player(world, absent).user.dm_channel
    before = {m.id for m in dm.history()}
    kept = await player(world, 1 - absent).user.click(question,
                                                      custom_id=button(question, "wait"))
    assert kept.acknowledged
    await flush(world)
    new = [m for m in dm.history() if m.id not in before]
    assert [m.id for m in new] == [live.dm_message_ids[absent]], [m.content for m in new]
    shown = " ".join(str(e.description) for e in new[0].embeds)
    assert "Your turn" in shown and "Turn ends" in shown, shown
    # Told once: the next delivery of the same turn edits that panel.
    svc.delivery.enqueue(live, Batch(hands={absent}))
    await flush(world)
    assert [m for m in dm.history() if m.id not in before] == new
