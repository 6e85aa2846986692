"""A read-only channel stays read-only: Discord lets a member run the bot's commands where they
may not write, and the bot then posted for them (a challenge with its ping, a practice table,
a leaderboard) where the server meant nobody to post."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord
from simcord.builders import UserHandle

from tests.discord_helpers import World


def _read_only(world: World) -> Any:
    bot_user = world.bot.user
    assert bot_user is not None
    return world.guild.create_text_channel("announcements", overwrites={
        world.guild.default_role: discord.PermissionOverwrite(send_messages=False),
        bot_user: discord.PermissionOverwrite(send_messages=True)})


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _saved(db_path: Path) -> tuple[int, int]:
    with sqlite3.connect(db_path) as c:
        return (int(c.execute("SELECT COUNT(*) FROM challenges").fetchone()[0]),
                int(c.execute("SELECT COUNT(*) FROM matches").fetchone()[0]))


async def test_no_session_starts_where_the_member_may_not_write(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    quiet = _read_only(world)
    world.clock.advance(60)
    said = ("You can't send messages in this channel: start the session in a channel where "
            "you can.")
    # Challenging the bot is a practice session: refused there too.
    the_bot = world.guild.add_member(UserHandle(world.env, world.env.backend.bot_user))
    for command, options in (("umtali challenge", {"opponent": world.bob}),
                             ("umtali challenge", {"opponent": the_bot}),
                             ("umtali practice", {})):
        r = await world.alice.slash(quiet, command, **options)
        assert r.ephemeral and _text(r) == said, (command, _text(r))
    locales[world.bob.id] = "ru"
    r = await world.bob.slash(quiet, "umtali challenge", opponent=world.alice)
    assert r.ephemeral and _text(r).startswith("Вы не можете писать в этом канале"), _text(r)
    assert _saved(db_path) == (0, 0) and quiet.history() == []
    # Where they may write, as before.
    r = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert not r.ephemeral and _saved(db_path) == (1, 0)


async def test_boards_and_stats_come_privately_where_the_member_may_not_write(
        world: World) -> None:
    quiet = _read_only(world)
    board = await world.alice.slash(quiet, "umtali leaderboard")
    stats = await world.alice.slash(quiet, "umtali stats", member=world.bob)
    for r in (board, stats):
        assert r.acknowledged and r.ephemeral and r.response is not None
        assert r.response.embeds
    assert quiet.history() == []
    # In a channel they may write in, as before: for everyone to see.
    board = await world.alice.slash(world.channel, "umtali leaderboard")
    assert not board.ephemeral
