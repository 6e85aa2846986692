"""Practice keeps the clock a challenge would have: the server's default time control (a blitz
server's practice had a plain 5-minute timer), an explicit turn timer, and a challenge of the
bot's own ``time_control`` (it was ignored); a practice rematch keeps its clock too."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from simcord.builders import UserHandle

from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import PRESETS
from tests.discord_helpers import World, cut, the_match
from tests.test_faults_timers import db_row
from tests.test_records_discord import resign
from tests.test_rematch import final_table

# The computer thinks in real worker processes on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)


async def _server_default(world: World, **settings: object) -> None:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    ok = await boss.slash(world.channel, "umtali-admin settings", **settings)
    assert ok.ephemeral, ok.response.content


async def _started(world: World, command: str, **options: object) -> LiveMatch:
    r = await world.alice.slash(world.channel, command, **options)
    assert r.acknowledged and not r.ephemeral, r.response.content
    await cut(world, r)
    return the_match(world)


async def _over(world: World, live: LiveMatch) -> None:
    """The session ends (resigned), and the cooldown between practice sessions passes."""
    await resign(world, world.alice, live)
    world.clock.advance(3600)


def _has(world: World, db_path: Path, live: LiveMatch, preset: str, turn: int) -> None:
    """``live`` runs ``preset`` (``''``: a plain timer of ``turn`` seconds), as saved too; the
    human's first clock is set by it."""
    assert (live.time_control, live.turn_timer) == (preset, turn)
    assert (db_row(db_path, live.id)["time_control"], db_row(db_path, live.id)["turn_timer"]) \
        == (preset, turn)
    reserve = PRESETS[preset].reserve if preset else 0
    assert live.reserves == [reserve, reserve]
    if live.session.to_act == 0:
        assert live.deadline == (pytest.approx(world.clock.now + turn + reserve, abs=1)
                                 if turn else None)


async def test_practice_follows_the_servers_default_time_control(
        world: World, db_path: Path) -> None:
    await _server_default(world, time_control="blitz")
    live = await _started(world, "umtali practice")
    _has(world, db_path, live, "blitz", 30)
    # A practice rematch is played with the same clock.
    await _over(world, live)
    again = await world.alice.click(final_table(world, live), custom_id=f"umtali:rm:{live.id}")
    assert again.acknowledged
    await cut(world, again)
    second = next(m for m in world.bot.matches.matches.values()  # type: ignore[union-attr]
                  if not m.over)
    _has(world, db_path, second, "blitz", 30)
    await _over(world, second)
    # A turn timer given explicitly is a timer of its own, with no reserve, as in a challenge.
    live = await _started(world, "umtali practice", turn_timer=2)
    _has(world, db_path, live, "", 120)
    await _over(world, live)
    # A server with a plain turn timer (no preset) gives practice that timer, as before.
    await _server_default(world, turn_timer=3)
    live = await _started(world, "umtali practice")
    _has(world, db_path, live, "", 180)


async def test_a_challenge_of_the_bot_keeps_its_time_control(
        world: World, db_path: Path) -> None:
    the_bot = world.guild.add_member(UserHandle(world.env, world.env.backend.bot_user))
    live = await _started(world, "umtali challenge", opponent=the_bot,
                          time_control="correspondence")
    assert live.computer_level == "normal"
    _has(world, db_path, live, "correspondence", int(PRESETS["correspondence"].turn))
    await _over(world, live)
    # With none chosen, the server's default, as for a challenge of a member.
    await _server_default(world, time_control="blitz")
    live = await _started(world, "umtali challenge", opponent=the_bot)
    _has(world, db_path, live, "blitz", 30)
    await _over(world, live)
    live = await _started(world, "umtali challenge", opponent=the_bot, time_control="off")
    _has(world, db_path, live, "off", 0)
