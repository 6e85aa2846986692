"""fix128: a match cancelled as it started (its table's first post refused) left behind the
empty thread made for it, named for the match. The bot deletes it where it may manage threads
(Discord asks Manage Threads to delete one); where it may not (the README's invite gives it
none), it archives it, which a thread's creator may do. SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord

from tests.discord_helpers import World, accept, custom_ids, flush


def _cancelled(db_path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db_path) as c:
        return list(c.execute("SELECT status, how FROM matches"))


async def _start_refused(world: World, channel: Any) -> Any:
    world.clock.advance(60)
    result = await world.alice.slash(channel, "umtali challenge", opponent=world.bob)
    assert not result.ephemeral and any(c.endswith(":accept") for c in custom_ids(
        result.response))
    # The table's first post is refused: the match is cancelled before anyone saw it.
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50013,
                           message="Missing Permissions", times=1)
    await accept(world.bob, result.response)
    await flush(world)
    return result


async def test_the_thread_of_a_match_cancelled_at_its_start_is_deleted(
        world: World, db_path: Path) -> None:
    await _start_refused(world, world.channel)
    assert _cancelled(db_path) == [("finished", "cancelled")]
    assert [t.name for t in world.channel.threads] == []


async def test_where_the_bot_may_not_manage_threads_it_is_archived(
        world: World, db_path: Path) -> None:
    bot_user = world.bot.user
    assert bot_user is not None
    club = world.guild.create_text_channel("club", overwrites={
        bot_user: discord.PermissionOverwrite(manage_threads=False)})
    await _start_refused(world, club)
    assert _cancelled(db_path) == [("finished", "cancelled")]
    made = [world.env.backend.get_thread(t.id) for t in club.threads]
    assert [(t.name, t.thread_metadata and t.thread_metadata.archived) for t in made] == [
        ("Umtali: ada vs ben", True)], made
