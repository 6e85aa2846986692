"""Challenges a member could never answer: to someone who cannot see the channel (they would
see neither the challenge nor its ping, and it could only expire, holding the pair back from
challenging each other meanwhile)."""

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


async def test_no_challenge_to_a_member_who_cannot_see_the_channel(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    staff = world.guild.create_text_channel(
        "staff", overwrites={world.bob: discord.PermissionOverwrite(view_channel=False)})
    world.clock.advance(60)
    r = await world.alice.slash(staff, "umtali challenge", opponent=world.bob)
    assert r.ephemeral and "ben can't see this channel" in _text(r), _text(r)
    locales[world.carol.id] = "ru"
    r = await world.carol.slash(staff, "umtali challenge", opponent=world.bob)
    assert r.ephemeral and "ben не видит этот канал" in _text(r), _text(r)
    assert _challenges(db_path) == 0
    # Where both can see, the challenge is posted as ever.
    r = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert not r.ephemeral and any(c.endswith(":accept") for c in custom_ids(r.response))
