"""A rematch asked of a player who has since left the server is refused privately, with the
words ``/umtali challenge`` uses for the same case: the challenge could only expire. Nothing is
posted or saved. SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from data.store import Limits
from tests.discord_helpers import World, flush, start_match
from tests.test_records_discord import resign
from tests.test_rematch import final_table


def _posts(world: World) -> int:
    return sum(len(t.history()) for t in [world.channel, *world.channel.threads])


def _challenges(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as c:
        return [row[0] for row in c.execute("SELECT status FROM challenges ORDER BY id")]


async def test_a_rematch_with_a_player_who_left_is_refused_privately(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    first = await start_match(world)
    await resign(world, world.bob, first)
    table = final_table(world, first)
    world.guild.remove_member(world.bob)
    await world.env.settle()
    posts, saved = _posts(world), _challenges(db_path)
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(table, custom_id=f"umtali:rm:{first.id}")
    assert asked.ephemeral and asked.response.content == "ben is not a member of this server."
    locales[world.alice.id] = "ru"
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(table, custom_id=f"umtali:rm:{first.id}")
    assert asked.ephemeral and asked.response.content == "ben не участник этого сервера."
    await flush(world)
    assert _posts(world) == posts and _challenges(db_path) == saved == ["accepted"]


async def test_a_rematch_with_a_player_still_here_is_posted(world: World) -> None:
    first = await start_match(world)
    await resign(world, world.bob, first)
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(final_table(world, first),
                                    custom_id=f"umtali:rm:{first.id}")
    assert asked.acknowledged and not asked.ephemeral


async def test_a_rematch_with_a_player_who_no_longer_sees_the_channel_is_refused(
        world: World, db_path: Path) -> None:
    # They would never see the challenge (nor its ping): refused as /umtali challenge does.
    first = await start_match(world)
    await resign(world, world.bob, first)
    table = final_table(world, first)
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.bob.id, type=OverwriteType.MEMBER, allow=0,
        deny=discord.Permissions(view_channel=True).value))
    posts, saved = _posts(world), _challenges(db_path)
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(table, custom_id=f"umtali:rm:{first.id}")
    assert asked.ephemeral, asked.response
    assert asked.response.content == ("ben can't see this channel: challenge them in a "
                                      "channel you both can see.")
    await flush(world)
    assert _posts(world) == posts and _challenges(db_path) == saved
