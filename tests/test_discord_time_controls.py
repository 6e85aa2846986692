"""Issue 12, time controls: every preset's deadline, the reserve spent only past a turn's own
time (and saved with the move), blitz's forfeit, and by correspondence the turn's DM, the
reminder, and the waiting player's choice to claim the win or keep waiting; over SimCord, with
time injected through the service's clock."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord import assert_no_errors

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import DAY, HOUR, PRESETS
from cogs.umtali.time_out import decide
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    play_out,
    player,
    start_match,
    thread_of,
)
from tests.test_faults_timers import db_row, to_turn_end
from umtali.players import GreedyPlayer


def _db_deadline(db_path: Path, match_id: int) -> float | None:
    deadline: float | None = db_row(db_path, match_id)["deadline"]
    return deadline


def _reserves(db_path: Path, match_id: int) -> tuple[float, float]:
    row = db_row(db_path, match_id)
    return row["reserve0"], row["reserve1"]


async def _end_turn(world: World, live: LiveMatch) -> int:
    """The player to act plays out their turn (at the clock's time); their seat."""
    seat = live.session.to_act
    await to_turn_end(world, live)
    await play_out(world, live, moves=1)
    assert live.session.to_act != seat or live.over
    return seat


def _table_text(world: World, live: LiveMatch) -> str:
    assert live.table_message_id is not None
    message = next(m for m in thread_of(world, live).history()
                   if m.id == live.table_message_id)
    return str(message.embeds[0].description)


@pytest.mark.parametrize("preset", ["blitz", "normal", "correspondence"])
async def test_each_preset_gives_its_turn_and_reserve(world: World, db_path: Path,
                                                      preset: str) -> None:
    control = PRESETS[preset]
    live = await start_match(world, time_control=preset)
    challenge = world.channel.history()[0].embeds[0].description or ""
    assert preset.capitalize() in challenge
    assert live.time_control == preset and live.reserves == [control.reserve] * 2
    assert live.deadline == world.clock.now + control.turn + control.reserve
    assert db_row(db_path, live.id)["time_control"] == preset
    assert _reserves(db_path, live.id) == (control.reserve, control.reserve)
    assert _db_deadline(db_path, live.id) == live.deadline
    # The table says whose clock runs, and the reserves where there are any.
    table = _table_text(world, live)
    name = live.names[live.session.to_act]
    assert f"⏱ {name}'s clock is running" in table
    assert ("reserve" in table) == (control.reserve > 0)


async def test_off_has_no_clock(world: World, db_path: Path) -> None:
    live = await start_match(world, time_control="off")
    assert live.deadline is None and _db_deadline(db_path, live.id) is None
    await world.bot.matches.check_timers(now=world.clock.now + 10 * DAY)  # type: ignore[union-attr]
    await _end_turn(world, live)
    assert live.deadline is None and not live.over
    assert "⏱" not in _table_text(world, live)


async def test_a_slow_turn_spends_only_its_excess_from_the_reserve(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="blitz")
    slow = live.session.to_act
    start = world.clock.now
    await to_turn_end(world, live)
    # 45 s past the turn's own 30: the table shows the reserve running.
    world.clock.now = start + 30 + 45
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert "the reserve is running" in _table_text(world, live)
    assert not live.over
    await play_out(world, live, moves=1)
    assert live.session.to_act == 1 - slow
    assert live.reserves[slow] == pytest.approx(120 - 45)
    assert _reserves(db_path, live.id)[slow] == pytest.approx(75)
    # The other player starts with their whole reserve, and plays within their own time.
    assert live.deadline == pytest.approx(world.clock.now + 30 + 120)
    world.clock.advance(20)
    await _end_turn(world, live)
    assert live.reserves[1 - slow] == pytest.approx(120)
    assert _reserves(db_path, live.id) == pytest.approx(
        (75, 120) if slow == 0 else (120, 75))
    # The slow player's next turn starts with what was left.
    assert live.session.to_act == slow
    assert live.deadline == pytest.approx(world.clock.now + 30 + 75)
    table = _table_text(world, live)
    assert f"⏱ {live.names[slow]}'s clock is running" in table and "1:15" in table
    assert "2:00" in table


async def test_blitz_warns_then_forfeits_when_the_reserve_is_gone(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="blitz")
    seat = live.session.to_act
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline - 11)
    assert not live.warned
    await svc.check_timers(now=live.deadline - 9)
    await flush(world)
    assert "seconds left for your turn" in thread_of(world, live).history()[-1].content
    await svc.check_timers(now=live.deadline + 1)
    await flush(world)
    assert live.over and live.session.winner == 1 - seat
    [result] = await svc.store.session_results(world.guild.id)
    assert result["how"] == "timed out"


async def test_a_restart_keeps_the_reserves(world: World, db_path: Path,
                                            make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, time_control="normal")
    start = world.clock.now
    seat = live.session.to_act
    await to_turn_end(world, live)
    world.clock.now = start + 5 * 60 + 100  # 100 s into the reserve
    await play_out(world, live, moves=1)
    assert live.reserves[seat] == pytest.approx(200)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.time_control == "normal"
    assert restored.reserves[seat] == pytest.approx(200)
    assert restored.reserves[1 - seat] == pytest.approx(300)
    # The other player ends their turn; the slow one's deadline counts their reserve left.
    await _end_turn(world, restored)
    assert restored.deadline == pytest.approx(world.clock.now + 5 * 60 + 200)


# -- correspondence ------------------------------------------------------------------------

def _dms(world: World, seat: int) -> list[str]:
    return [m.content for m in player(world, seat).user.dm_channel.history() if m.content]


async def _time_up(world: World) -> tuple[LiveMatch, Any]:
    """A correspondence match whose first turn ran out: the match, and the question."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + 1)
    await flush(world)
    assert not live.over and live.deadline is None
    question = thread_of(world, live).history()[-1]
    assert "time for this turn is up" in question.content
    assert f"<@{live.player_ids[1 - absent]}>" in question.content
    return live, question


def _button(question: Any, action: str) -> str:
    return next(c for c in custom_ids(question) if c.endswith(":" + action))


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
    await _end_turn(world, live)
    await flush(world)
    told = [t for t in _dms(world, 1 - first) if "Your turn in the Umtali match" in t]
    assert len(told) == 1
    assert live.deadline == pytest.approx(world.clock.now + DAY)


async def test_correspondence_asks_and_the_claim_wins_once(world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await _time_up(world)
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    assert _db_deadline(db_path, live.id) is None
    assert "may claim the session or keep waiting" in _table_text(world, live)
    # Nothing more happens at later checks: asked once, and nobody forfeits on the clock.
    await svc.check_timers(now=world.clock.now + 3 * DAY)
    await flush(world)
    assert not live.over
    assert sum("time for this turn is up" in m.content
               for m in thread_of(world, live).history()) == 1
    # The absent player cannot claim for the other.
    wrong = await player(world, absent).click(question, custom_id=_button(question, "claim"))
    assert wrong.ephemeral and "Only" in wrong.response.content
    # The claim wins; a second click after it finds nothing left to claim.
    claimed = await waiting.click(question, custom_id=_button(question, "claim"))
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
    live, _ = await _time_up(world)
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
    live, question = await _time_up(world)
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    world.clock.advance(600)
    kept = await waiting.click(question, custom_id=_button(question, "wait"))
    assert kept.acknowledged and not kept.ephemeral
    await flush(world)
    assert live.deadline == pytest.approx(world.clock.now + DAY)
    assert _db_deadline(db_path, live.id) == live.deadline
    shown = next(m for m in thread_of(world, live).history() if m.id == question.id)
    assert "keeps waiting" in shown.content and shown.components == []
    # The absent player moves at last: the session goes on, the next player on the clock.
    await _end_turn(world, live)
    assert not live.over and live.session.to_act == 1 - absent
    assert live.deadline == pytest.approx(world.clock.now + DAY)
    # When that player's time is up in turn, they are asked about anew.
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + 1)
    await flush(world)
    again = thread_of(world, live).history()[-1]
    assert again.id != question.id and f":{live.version}:claim" in _button(again, "claim")
    assert f"<@{live.player_ids[absent]}>" in again.content and not live.over


def _shown(world: World, live: LiveMatch, question: Any) -> Any:
    return next(m for m in thread_of(world, live).history() if m.id == question.id)


async def _absent_moves(world: World, live: LiveMatch) -> int:
    """The absent player makes a move at last; their seat."""
    absent = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(absent))
    outcome = await world.bot.matches.act(  # type: ignore[union-attr]
        live, live.player_ids[absent], move)
    assert outcome.ok
    await flush(world)
    return absent


async def test_a_move_after_the_question_makes_it_void(world: World, db_path: Path) -> None:
    live, question = await _time_up(world)
    asked = db_row(db_path, live.id)["question"]
    assert f'"message_id": {question.id}' in asked and live.question == asked
    # Moving on voids the question: it says so, its buttons gone, and nothing is left saved.
    absent = await _absent_moves(world, live)
    shown = _shown(world, live, question)
    assert "time for this turn is up" in shown.content
    assert "no longer needed" in shown.content and shown.components == []
    assert db_row(db_path, live.id)["question"] == "" and live.question == ""
    assert not live.over and live.session.to_act == absent


async def test_a_question_outlives_a_restart_and_a_move_then_voids_it(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live, question = await _time_up(world)
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    restored = again.matches.matches[live.id]
    assert restored.question == live.question != ""
    move = GreedyPlayer().choose(restored.session.view(restored.session.to_act))
    assert (await again.matches.act(
        restored, restored.player_ids[restored.session.to_act], move)).ok
    await flush(world)
    shown = _shown(world, restored, question)
    assert "no longer needed" in shown.content and shown.components == []
    assert db_row(db_path, live.id)["question"] == ""


async def test_an_answered_question_is_not_voided_after(world: World, db_path: Path) -> None:
    live, question = await _time_up(world)
    absent = live.session.to_act
    kept = await player(world, 1 - absent).click(question, custom_id=_button(question, "wait"))
    assert kept.acknowledged and not kept.ephemeral
    await flush(world)
    assert db_row(db_path, live.id)["question"] == ""
    await _absent_moves(world, live)
    shown = _shown(world, live, question)
    assert "keeps waiting" in shown.content and "no longer needed" not in shown.content


async def test_a_question_not_editable_for_now_is_voided_later(world: World, db_path: Path) -> None:
    live, question = await _time_up(world)
    path = f"/channels/{question.channel.id}/messages/{question.id}"
    # Discord busy: the question stays saved, and the next delivery voids it.
    world.env.inject_error("PATCH", path, status=503, code=0, message="Unavailable")
    absent = await _absent_moves(world, live)
    assert "no longer needed" not in _shown(world, live, question).content
    assert db_row(db_path, live.id)["question"] != ""
    # Its buttons, clicked meanwhile, change nothing.
    late = await player(world, 1 - absent).click(question, custom_id=_button(question, "claim"))
    assert late.ephemeral and "no longer needed" in late.response.content
    assert not live.over
    await _absent_moves(world, live)
    assert "no longer needed" in _shown(world, live, question).content
    assert db_row(db_path, live.id)["question"] == ""


async def test_a_deleted_question_is_forgotten(world: World, db_path: Path) -> None:
    live, question = await _time_up(world)
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=404, code=10008, message="Unknown Message")
    await _absent_moves(world, live)
    assert db_row(db_path, live.id)["question"] == "" and live.question == ""
    assert_no_errors(world.env)


# -- the options -----------------------------------------------------------------------------

async def test_server_default_and_an_explicit_turn_timer(world: World, db_path: Path) -> None:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    ok = await boss.slash(world.channel, "umtali-admin settings", time_control="blitz")
    assert ok.ephemeral and "Blitz" in ok.response.content
    live = await start_match(world)
    assert live.time_control == "blitz" and live.reserves == [120.0, 120.0]
    await world.bot.matches.abandon(live)  # type: ignore[union-attr]
    await flush(world)
    # A turn timer given explicitly is a control of its own, with no reserve.
    live = await start_match(world, turn_timer=2)
    assert live.time_control == "" and live.turn_timer == 120
    assert live.deadline == pytest.approx(world.clock.now + 120)
    assert db_row(db_path, live.id)["time_control"] == ""
    assert "⏱" not in _table_text(world, live)
    # A server turn timer drops the preset.
    ok = await boss.slash(world.channel, "umtali-admin settings", turn_timer=3)
    assert "3 min" in ok.response.content
    with sqlite3.connect(db_path) as c:
        [(preset,)] = c.execute("SELECT time_control FROM guild_settings").fetchall()
    assert preset == ""


async def test_the_question_outlives_a_restart(world: World, db_path: Path,
                                               make_bot: Callable[[], UmtaliBot]) -> None:
    live, question = await _time_up(world)
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
                                                    custom_id=_button(question, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    assert restored.over and restored.session.winner == 1 - absent
    assert db_row(db_path, live.id)["how"] == "timed out"
