"""Issue 12, time controls: every preset's deadline, the reserve spent only past a turn's own
time (and saved with the move, through a restart), blitz's forfeit, and the server's default
and an explicit turn timer; over SimCord, with time injected through the service's clock.
Correspondence's question: tests/test_discord_correspondence.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import pytest

from bot import UmtaliBot
from cogs.umtali.clock_state import LATE
from cogs.umtali.time_control import DAY, PRESETS
from tests.discord_helpers import World, flush, play_out, start_match, thread_of
from tests.test_faults_timers import db_row, to_turn_end
from tests.time_control_helpers import db_deadline, end_turn, table_text


def _reserves(db_path: Path, match_id: int) -> tuple[float, float]:
    row = db_row(db_path, match_id)
    return row["reserve0"], row["reserve1"]


@pytest.mark.parametrize("preset", ["blitz", "normal", "correspondence"])
async def test_each_preset_gives_its_turn_and_reserve(world: World, db_path: Path,
                                                      preset: str) -> None:
    control = PRESETS[preset]
    live = await start_match(world, time_control=preset)
    challenge = world.channel.history()[0].embeds[0].description or ""
    assert f"clock: {'by ' if preset == 'correspondence' else ''}{preset} (" in challenge
    assert live.time_control == preset and live.reserves == [control.reserve] * 2
    assert live.deadline == world.clock.now + control.turn + control.reserve
    assert db_row(db_path, live.id)["time_control"] == preset
    assert _reserves(db_path, live.id) == (control.reserve, control.reserve)
    assert db_deadline(db_path, live.id) == live.deadline
    # The table says whose clock runs, and the reserves where there are any.
    table = table_text(world, live)
    name = live.names[live.session.to_act]
    assert f"{name}'s clock is running" in table and "⏱" not in table
    assert ("reserve" in table) == (control.reserve > 0)


async def test_off_has_no_clock(world: World, db_path: Path) -> None:
    live = await start_match(world, time_control="off")
    assert live.deadline is None and db_deadline(db_path, live.id) is None
    await world.bot.matches.check_timers(now=world.clock.now + 10 * DAY)  # type: ignore[union-attr]
    await end_turn(world, live)
    assert live.deadline is None and not live.over
    assert "clock is running" not in table_text(world, live)


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
    assert "the reserve is running" in table_text(world, live)
    assert not live.over
    await play_out(world, live, moves=1)
    assert live.session.to_act == 1 - slow
    assert live.reserves[slow] == pytest.approx(120 - 45)
    assert _reserves(db_path, live.id)[slow] == pytest.approx(75)
    # The other player starts with their whole reserve, and plays within their own time.
    assert live.deadline == pytest.approx(world.clock.now + 30 + 120, abs=1)
    world.clock.advance(20)
    await end_turn(world, live)
    assert live.reserves[1 - slow] == pytest.approx(120)
    assert _reserves(db_path, live.id) == pytest.approx(
        (75, 120) if slow == 0 else (120, 75))
    # The slow player's next turn starts with what was left.
    assert live.session.to_act == slow
    assert live.deadline == pytest.approx(world.clock.now + 30 + 75, abs=1)
    table = table_text(world, live)
    # In words a screen reader says well: units, not "1:15"; no stopwatch sign.
    first, second = (slow, 1 - slow) if slow == 0 else (1 - slow, slow)
    spent = {slow: "1 minute 15 seconds", 1 - slow: "2 minutes"}
    assert f"{live.names[slow]}'s clock is running; reserve: {live.names[first]} " \
           f"{spent[first]}, {live.names[second]} {spent[second]}" in table, table


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
    await svc.check_timers(now=live.deadline + LATE + 1)
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
    await end_turn(world, restored)
    assert restored.deadline == pytest.approx(world.clock.now + 5 * 60 + 200, abs=1)


async def test_server_default_and_an_explicit_turn_timer(world: World, db_path: Path) -> None:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    ok = await boss.slash(world.channel, "umtali-admin settings", time_control="blitz")
    assert ok.ephemeral and "- Clock: blitz (30 seconds a turn" in ok.response.content
    live = await start_match(world)
    assert live.time_control == "blitz" and live.reserves == [120.0, 120.0]
    await world.bot.matches.abandon(live)  # type: ignore[union-attr]
    await flush(world)
    # A turn timer given explicitly is a control of its own, with no reserve.
    live = await start_match(world, turn_timer=2)
    assert live.time_control == "" and live.turn_timer == 120
    assert live.deadline == pytest.approx(world.clock.now + 120, abs=1)
    assert db_row(db_path, live.id)["time_control"] == ""
    assert "clock is running" not in table_text(world, live)
    # A server turn timer drops the preset.
    ok = await boss.slash(world.channel, "umtali-admin settings", turn_timer=3)
    assert "3 minutes" in ok.response.content
    with sqlite3.connect(db_path) as c:
        [(preset,)] = c.execute("SELECT time_control FROM guild_settings").fetchall()
    assert preset == ""
