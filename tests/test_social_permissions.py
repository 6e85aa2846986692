"""Where the bot may not host a match: every permission the table needs is checked before a
challenge or practice session is posted, and the member told which one is missing, in their
language. The table carries its picture as a file, which Discord refuses without Attach
Files: such a channel once took the challenge and the accept, then cancelled the match at its
first post."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord

from tests.discord_helpers import World, custom_ids


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _challenges(db_path: Path) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM challenges").fetchone()[0])


def _no_files_channel(world: World) -> Any:
    bot_user = world.bot.user
    assert bot_user is not None
    return world.guild.create_text_channel(
        "no-files", overwrites={bot_user: discord.PermissionOverwrite(attach_files=False)})


async def test_no_challenge_where_the_bot_cannot_attach_the_tables_picture(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    quiet = _no_files_channel(world)
    world.clock.advance(60)
    r = await world.alice.slash(quiet, "umtali challenge", opponent=world.bob)
    assert r.ephemeral and "I need the **Attach Files** permission here" in _text(r), _text(r)
    practice = await world.alice.slash(quiet, "umtali practice")
    assert practice.ephemeral and "**Attach Files**" in _text(practice)
    locales[world.bob.id] = "ru"
    r = await world.bob.slash(quiet, "umtali challenge", opponent=world.alice)
    assert r.ephemeral and "**Прикреплять файлы**" in _text(r), _text(r)
    assert _challenges(db_path) == 0
    assert world.bot.matches is not None and world.bot.matches.matches == {}


async def test_a_server_without_pictures_needs_no_attach_files(world: World,
                                                               db_path: Path) -> None:
    admin = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[admin])
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    assert ok.ephemeral
    quiet = _no_files_channel(world)
    world.clock.advance(60)
    r = await world.alice.slash(quiet, "umtali challenge", opponent=world.bob)
    assert not r.ephemeral and any(c.endswith(":accept") for c in custom_ids(r.response))
    assert _challenges(db_path) == 1
