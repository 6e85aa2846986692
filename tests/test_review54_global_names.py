"""Boards and records that span servers name a member by their Discord-wide display name
(global name, else username), recorded with the session; a server's own board, stats and
seasons keep that server's nickname (review54). A nickname is the server's: chosen there,
perhaps by its moderators, it must not tell every other server what a member is called."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from simcord import Env

from cogs.umtali.saved import finish_of
from data.copy_to_postgres import copy
from data.models import BoardPage
from data.records import GLOBAL
from data.store import Limits, Store
from tests.discord_helpers import (
    Clock,
    World,
    custom_ids,
    flush,
    start_match,
    submit_cut,
)
from tests.test_records import GUILD, state
from tests.test_records_discord import board_lines, resign, text_of
from tests.test_rematch import final_table
from umtali.rules import RuleSet
from umtali.session import Session


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


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


async def test_a_rematch_keeps_the_discord_wide_names(simcord_env: Env, clock: Clock) -> None:
    """A rematch is a challenge by a button, its seats turned round: the names everywhere
    follow their seats."""
    world = nicknamed(simcord_env, clock)
    first = await start_match(world)
    await resign(world, world.bob, first)
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(final_table(world, first), custom_id=f"umtali:rm:{first.id}")
    accept = next(c for c in custom_ids(asked.response) if c.endswith(":accept"))
    assert (await submit_cut(world.bob, await world.bob.click(asked.response,
                                                              custom_id=accept))).acknowledged
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    second = next(m for m in svc.matches.values() if m.id != first.id)
    assert second.player_ids == (world.bob.id, world.alice.id)
    await resign(world, world.bob, second)
    there = await elsewhere(world)
    text = "\n".join(board_lines(await there.carol.slash(there.channel, "umtali leaderboard",
                                                         scope="global")))
    assert "Mod Joke" not in text and "Bench Nick" not in text, text
    assert "**Ada**" in text and "**benjamin**" in text, text


# -- the store, on both backends -------------------------------------------------------------


async def ended(store: Store, winner: tuple[int, str], loser: tuple[int, str],
                global_names: tuple[str, str] | None, *, guild: int = GUILD,
                now: float = 1000.0) -> int:
    """A session the loser (seat 1) resigned; ``global_names`` None: made as before they
    were kept (a match in play when the bot was upgraded)."""
    session = Session(RuleSet.english(), 7)
    match_id = await store.create_match(
        guild_id=guild, channel_id=1, players=(winner, loser), variant="english",
        turn_timer=0, state=state(session), deadline=None, now=now,
        global_names=global_names or ("", ""))
    session.resign(1)
    await store.finish_match(match_id=match_id, version=0, state=state(session),
                             finish=finish_of(session), now=now)
    return match_id


def names_on(board: BoardPage) -> dict[int, str]:
    return {row.user_id: row.name for row in board.rows}


async def test_records_of_all_servers_keep_the_names_everywhere(store: Store) -> None:
    await ended(store, (1, "Mod Joke"), (2, "Bench Nick"), ("Ada", "benjamin"))
    assert names_on(await store.records.leaderboard(GUILD, 1)) == {1: "Mod Joke",
                                                                   2: "Bench Nick"}
    assert names_on(await store.records.leaderboard(GLOBAL, 1)) == {1: "Ada", 2: "benjamin"}
    assert (await store.records.record(GLOBAL, 1)).name == "Ada"
    assert (await store.records.record(GUILD, 1)).name == "Mod Joke"
    # On another server, under another nickname: that server's board has it, the board of
    # all servers the newest name everywhere.
    await ended(store, (2, "Ben the Brave"), (1, "Ada L"), ("Ben", "Ada"), guild=GUILD + 1,
                now=2000.0)
    assert names_on(await store.records.leaderboard(GUILD + 1, 1)) == {1: "Ada L",
                                                                       2: "Ben the Brave"}
    assert names_on(await store.records.leaderboard(GLOBAL, 1)) == {1: "Ada", 2: "Ben"}
    assert names_on(await store.records.leaderboard(GUILD, 1)) == {1: "Mod Joke",
                                                                   2: "Bench Nick"}


async def test_a_match_from_before_counts_under_its_names_here(store: Store) -> None:
    """A match made before the names everywhere were kept (in play across the upgrade) has
    none: its names here stand in, as they did before, until the member plays again."""
    await ended(store, (1, "Mod Joke"), (2, "Bench Nick"), None)
    assert names_on(await store.records.leaderboard(GLOBAL, 1)) == {1: "Mod Joke",
                                                                   2: "Bench Nick"}
    await ended(store, (1, "Mod Joke"), (2, "Bench Nick"), ("Ada", "benjamin"), now=2000.0)
    assert names_on(await store.records.leaderboard(GLOBAL, 1)) == {1: "Ada", 2: "benjamin"}


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_the_copy_to_postgresql_keeps_the_names_everywhere(
        tmp_path: Path, empty_target: str) -> None:
    source = tmp_path / "umtali.sqlite3"
    lite = await Store.open(source)
    try:
        await ended(lite, (1, "Mod Joke"), (2, "Bench Nick"), ("Ada", "benjamin"))
        await lite.create_challenge(
            guild_id=GUILD, channel_id=5, challenger=(3, "Nick"), opponent=(4, "Other"),
            variant="english", optional_melding=False, turn_timer=300, ttl=600, now=1000.0,
            global_names=("Cy", "Di"))
    finally:
        await lite.close()
    await copy(source, empty_target)
    pg = await Store.open(empty_target)
    try:
        assert names_on(await pg.records.leaderboard(GLOBAL, 1)) == {1: "Ada", 2: "benjamin"}
        assert names_on(await pg.records.leaderboard(GUILD, 1)) == {1: "Mod Joke",
                                                                    2: "Bench Nick"}
        [challenge] = await pg.open_challenges()
        assert challenge.global_names == ("Cy", "Di")
    finally:
        await pg.close()
