"""A challenge (or practice session) with no clock says so in a sentence of its own: in Russian
the setting's word for off is «выкл.», and the sentence's full stop followed it ("время на
ход: выкл.."). Now it reads «без ограничения»; English is as it was ("clock: off.").
SimCord, a real SQLite file."""

from __future__ import annotations

from typing import Any

from data.models import GuildSettings
from tests.discord_helpers import World


def _description(result: Any) -> str:
    assert result.acknowledged and not result.ephemeral, result
    return str(result.response.embeds[0].description or "")


async def _russian(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    await svc.store.save_guild_settings(GuildSettings(guild_id=world.guild.id, language="ru"))
    await svc.prefs.load()


async def test_a_challenge_with_no_clock_says_so_once(world: World) -> None:
    world.clock.advance(60)
    said = _description(await world.alice.slash(world.channel, "umtali challenge",
                                                opponent=world.bob, turn_timer=0))
    assert "Rules: English · clock: off.\n" in said
    await _russian(world)
    world.clock.advance(60)
    said = _description(await world.alice.slash(world.channel, "umtali challenge",
                                                opponent=world.carol, turn_timer=0))
    assert "Правила: английские · контроль времени: без ограничения.\n" in said
    assert ".." not in said


async def test_a_practice_session_with_no_clock_says_so_once(world: World) -> None:
    await _russian(world)
    said = _description(await world.alice.slash(world.channel, "umtali practice",
                                                turn_timer=0))
    assert "Время на ваши ходы: без ограничения.\n" in said and ".." not in said
