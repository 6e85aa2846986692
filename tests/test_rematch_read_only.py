"""The Rematch button where the player may no longer write (the session's channel made
read-only, its thread locked, after the session): refused privately, as the challenge and
practice commands are there; it posted a challenge (with its ping), or a practice session, for
everyone, where the server meant nobody to post. Where they may write, as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from data.store import Limits
from tests.discord_helpers import World, start_match, start_practice, thread_of
from tests.test_records_discord import resign
from tests.test_rematch import final_table

_WRITING = discord.Permissions(send_messages=True, send_messages_in_threads=True).value
SAID = "You can't send messages in this channel: start the session in a channel where you can."


def _matches(db_path: Path) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM matches").fetchone()[0]) + \
            int(c.execute("SELECT COUNT(*) FROM challenges").fetchone()[0])


def _read_only(world: World) -> None:
    """Members may no longer write in the channel (its threads follow it); the bot may."""
    bot_user = world.bot.user
    assert bot_user is not None
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.guild.default_role.id, type=OverwriteType.ROLE, allow=0,
        deny=_WRITING))
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=bot_user.id, type=OverwriteType.MEMBER, allow=_WRITING, deny=0))


async def _refused(world: World, db_path: Path, live: Any) -> None:
    made, posted = _matches(db_path), len(thread_of(world, live).history())
    r = await world.alice.click(final_table(world, live), custom_id=f"umtali:rm:{live.id}")
    assert r.acknowledged and r.ephemeral, r.response
    assert r.response.content == SAID
    assert _matches(db_path) == made and len(thread_of(world, live).history()) == posted


async def test_a_rated_rematch_where_the_player_may_not_write(world: World,
                                                               db_path: Path) -> None:
    live = await start_match(world)
    await resign(world, world.bob, live)
    world.clock.advance(Limits().challenge_cooldown)
    _read_only(world)
    await _refused(world, db_path, live)


async def test_a_practice_rematch_in_a_locked_thread(world: World, db_path: Path) -> None:
    live = await start_practice(world)
    await resign(world, world.alice, live)
    world.clock.advance(3600)  # past the cooldown between practice sessions
    thread = thread_of(world, live)
    assert thread is not world.channel
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"locked": True})
    await _refused(world, db_path, live)
    # Unlocked: played again at once, as before.
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"locked": False})
    r = await world.alice.click(final_table(world, live), custom_id=f"umtali:rm:{live.id}")
    assert r.acknowledged and not r.ephemeral
