"""review43: a match with no clock whose opponent has left the server (left, kicked or banned:
the bot has no members intent and hears nothing of it). Nothing ever ended such a match: no
clock forfeits the one gone, and they can no longer see its table or use the server's commands
(``/umtali play``, ``resign`` and ``table`` are for the server alone). The member still there
was held by it for good (no challenge, no practice on that server), and the one way out,
``/umtali resign``, recorded a rated loss against a player who walked away.

The ruling (README, "Resigning"): the remaining player's "Yes" to resign ends such a match with no
result, as a match nobody can finish (abandoned): nobody wins, no rating changes. Not a win
either, which a server admin could get by kicking their opponent. Only once the opponent has
been out of reach a day, from when the bot first found them so (fix161: a kick for a moment
voids nothing, ``tests/test_fix161_absence_grace.py``). A timed match is left to its clock,
which forfeits the one gone as anyone absent. SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cogs.umtali.resigning import NO_RESULT_AFTER
from tests.discord_helpers import World, custom_ids, flush, start_match
from tests.test_records_discord import text_of

LEFT = ("ben has left the server, and this match has no clock: it ends with no result. "
        "Nobody wins it and no rating changed; you are free to start another.")


ASKED_LEFT = ("ben has left the server, and this match has no clock: Yes ends it with no "
              "result (nobody wins it, no rating changes).")


async def gone_a_day(world: World) -> None:
    """The opponent first found out of reach by a resign question (its Yes, a resignation
    until a day has passed, not clicked), then a day passes (fix161)."""
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert any(c.endswith(":loss:resign") for c in custom_ids(ask.response)), ask.response
    world.clock.advance(NO_RESULT_AFTER)


async def _resign(world: World, asked: str = "Resign the session? Your opponent wins it.") -> str:
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.response.content == asked
    done = await world.alice.click(ask.response, custom_id=next(
        c for c in custom_ids(ask.response) if c.endswith(":resign")))
    assert done.acknowledged
    await flush(world)
    return str(done.response.content)


async def test_an_untimed_match_whose_opponent_left_ends_with_no_result(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    assert live.deadline is None  # no clock: nothing will ever forfeit the one gone
    world.guild.remove_member(world.bob)
    await world.env.settle()
    world.clock.advance(7 * 24 * 3600)
    await gone_a_day(world)
    held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert held.ephemeral
    assert held.response.content == "You are already playing a match on this server."
    # Her one way out: no loss.
    assert await _resign(world, ASKED_LEFT) == LEFT
    assert live.over and live.session.winner < 0
    with sqlite3.connect(db_path) as c:
        status, how = c.execute("SELECT status, how FROM matches WHERE id = ?",
                                (live.id,)).fetchone()
        results = c.execute("SELECT COUNT(*) FROM session_results").fetchone()[0]
        lost = c.execute("SELECT COUNT(*) FROM player_stats WHERE user_id = ? "
                         "AND sessions_lost > 0", (world.alice.id,)).fetchone()[0]
    assert (status, how, results, lost) == ("finished", "abandoned", 0, 0)
    mine = text_of(await world.alice.slash(world.channel, "umtali stats"))
    assert "lost" not in mine, mine
    # Free again.
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert not again.ephemeral, again.response.content


async def test_a_timed_match_whose_opponent_left_is_resigned_as_asked(
        world: World, db_path: Path) -> None:
    """Its clock forfeits the one gone: a resignation is what was asked."""
    live = await start_match(world, turn_timer=5)
    world.guild.remove_member(world.bob)
    await world.env.settle()
    said = await _resign(world)
    assert said.startswith("You resigned"), said
    assert live.over and live.session.how == "resigned"


async def test_an_opponent_still_here_is_resigned_to(world: World) -> None:
    live = await start_match(world, turn_timer=0)
    said = await _resign(world)
    assert said.startswith("You resigned"), said
    assert live.over and live.session.how == "resigned"
