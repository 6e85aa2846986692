"""Boards and records that span servers name a member by their Discord-wide display name
(global name, else username), recorded with the session; a server's own board, stats and
seasons keep that server's nickname (review54). A nickname is the server's: chosen there,
perhaps by its moderators, it must not tell every other server what a member is called."""

from __future__ import annotations

import dataclasses

from simcord import Env

from tests.discord_helpers import Clock, World, flush, start_match
from tests.test_records_discord import board_lines, resign, text_of


def nicknamed(simcord_env: Env, clock: Clock) -> World:
    guild = simcord_env.create_guild("Railway Club")
    channel = guild.create_text_channel("games")
    ada = simcord_env.create_user("ada_l", global_name="Ada")
    ben = simcord_env.create_user("benjamin")  # no global name: the username
    return World(simcord_env, guild, channel,
                 guild.add_member(ada, nick="Mod Joke"),
                 guild.add_member(ben, nick="Bench Nick"),
                 guild.add_member(simcord_env.create_user("cy")), clock)


async def elsewhere(world: World) -> World:
    """The same three members on a second server, with no nicknames there."""
    guild = world.env.create_guild("Chess Club")
    other = dataclasses.replace(world, guild=guild, channel=guild.create_text_channel("games"),
                                alice=guild.add_member(world.alice.user),
                                bob=guild.add_member(world.bob.user),
                                carol=guild.add_member(world.carol.user), tables={})
    await world.env.settle()
    return other


async def test_the_board_of_all_servers_shows_discord_wide_names(
        simcord_env: Env, clock: Clock) -> None:
    world = nicknamed(simcord_env, clock)
    live = await start_match(world)
    await resign(world, world.alice, live)
    await flush(world)
    # The server's own board keeps its nicknames.
    first, second = board_lines(await world.carol.slash(world.channel, "umtali leaderboard",
                                                        scope="server"))
    assert "**Bench Nick**" in first and "**Mod Joke**" in second, (first, second)
    # Every server's board of all servers: the names Discord shows everywhere.
    for where in (world, await elsewhere(world)):
        lines = board_lines(await where.carol.slash(where.channel, "umtali leaderboard",
                                                    scope="global"))
        text = "\n".join(lines)
        assert "Mod Joke" not in text and "Bench Nick" not in text, text
        assert "**benjamin**" in lines[0] and "**Ada**" in lines[1], text


async def test_stats_here_keep_the_nickname(simcord_env: Env, clock: Clock) -> None:
    world = nicknamed(simcord_env, clock)
    live = await start_match(world)
    await resign(world, world.alice, live)
    await flush(world)
    here = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.alice))
    assert "Umtali · Mod Joke" in here, here
    there = await elsewhere(world)
    away = text_of(await there.carol.slash(there.channel, "umtali stats", member=there.alice))
    assert "Mod Joke" not in away and "Bench Nick" not in away, away
