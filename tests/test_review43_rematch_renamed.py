"""review43: a rematch names each player as they are now, as ``/umtali challenge`` does: a
member renamed since the session before (a nickname changed as it was played) plays the
rematch, and is recorded, under the name they have, not the one of the session before; the
leaderboard, which shows a member's newest name, went back to the old one. SimCord, a real
SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from data.store import Limits
from tests.discord_helpers import World, custom_ids, flush, start_match, submit_cut
from tests.test_records_discord import board_lines, resign
from tests.test_rematch import final_table


def _names(db_path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db_path) as c:
        return c.execute("SELECT player0_name, player1_name FROM matches ORDER BY id").fetchall()


async def test_a_rematch_names_both_players_as_they_are_now(world: World, db_path: Path) -> None:
    first = await start_match(world)
    # Both renamed as the first session is played: it keeps the names it started with.
    world.env.backend.edit_member(world.guild.id, world.alice.id, {"nick": "Adelaide"})
    world.env.backend.edit_member(world.guild.id, world.bob.id, {"nick": "Benedict"})
    await world.env.settle()
    await resign(world, world.bob, first)
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(final_table(world, first), custom_id=f"umtali:rm:{first.id}")
    accept = next(c for c in custom_ids(asked.response) if c.endswith(":accept"))
    await submit_cut(world.bob, await world.bob.click(asked.response, custom_id=accept))
    await flush(world)
    # The rematch's seats are turned round: Benedict sits first.
    assert _names(db_path) == [("ada", "ben"), ("Benedict", "Adelaide")]
    second = world.bot.matches.matches if world.bot.matches else {}
    [rematch] = [m for m in second.values() if m.id != first.id]
    assert rematch.names == ("Benedict", "Adelaide")
    await resign(world, world.alice, rematch)
    board = board_lines(await world.carol.slash(world.channel, "umtali leaderboard"))
    assert any("Benedict" in line for line in board) and \
        any("Adelaide" in line for line in board), board
