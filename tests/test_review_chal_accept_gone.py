"""A challenge accepted after its challenger left the server, or lost the channel: refused
privately, in English and Russian, and nothing is started (the challenge stays open until it
expires). Before, the match started with a player who would never see its table: with no clock
it held the accepting member until they resigned (a loss recorded). SimCord, a real SQLite
file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.discord_helpers import World, accept, challenge, flush


def _saved(db_path: Path) -> tuple[list[str], int]:
    with sqlite3.connect(db_path) as c:
        statuses = [row[0] for row in c.execute("SELECT status FROM challenges ORDER BY id")]
        return statuses, c.execute("SELECT COUNT(*) FROM matches").fetchone()[0]


async def test_an_accept_after_the_challenger_left_is_refused(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    offered = await challenge(world, world.alice, world.bob, turn_timer=0)
    world.guild.remove_member(world.alice)
    await world.env.settle()
    answer = await accept(world.bob, offered.response)
    assert answer.ephemeral, answer.response
    assert answer.response.content == ("ada is no longer a member of this server: this "
                                       "challenge can't be accepted.")
    locales[world.bob.id] = "ru"
    answer = await accept(world.bob, offered.response)
    assert answer.ephemeral and answer.response.content == (
        "ada больше не участник этого сервера: этот вызов принять нельзя.")
    await flush(world)
    assert _saved(db_path) == (["open"], 0)
    assert world.bot.matches is not None and not world.bot.matches.matches


async def test_an_accept_after_the_challenger_lost_the_channel_is_refused(
        world: World, db_path: Path) -> None:
    offered = await challenge(world, world.alice, world.bob)
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.alice.id, type=OverwriteType.MEMBER, allow=0,
        deny=discord.Permissions(view_channel=True).value))
    answer = await accept(world.bob, offered.response)
    assert answer.ephemeral, answer.response
    assert answer.response.content == ("ada can no longer see this channel: this challenge "
                                       "can't be accepted here.")
    await flush(world)
    assert _saved(db_path) == (["open"], 0)


async def test_an_accept_with_the_challenger_here_starts_the_match(
        world: World, db_path: Path) -> None:
    offered = await challenge(world, world.alice, world.bob)
    answer = await accept(world.bob, offered.response)
    assert not answer.ephemeral
    await flush(world)
    assert _saved(db_path) == (["accepted"], 1)
