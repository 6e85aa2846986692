"""A practice session's offer says the clock its player's turns will have, as a challenge says
its own: the turn timer chosen, or the server's default time control, in the server's language.
Before, the offer named the level and the rules only, and a player who chose a turn timer (or
found a correspondence server's day a turn) learned of it only once the deck was cut. SimCord,
a real SQLite file."""

from __future__ import annotations

from typing import Any

from data.models import GuildSettings
from tests.discord_helpers import World


def _description(result: Any) -> str:
    assert result.acknowledged and not result.ephemeral, result
    return str(result.response.embeds[0].description or "")


async def test_the_practice_offer_says_its_clock(world: World) -> None:
    said = _description(await world.alice.slash(world.channel, "umtali practice", turn_timer=2))
    # And what running out does (review164).
    assert ("Clock for your turns: 2 minutes; run out of time and you lose the session."
            ) in said, said


async def test_the_practice_offer_says_the_servers_clock_in_its_language(
        world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    await svc.store.save_guild_settings(GuildSettings(
        guild_id=world.guild.id, time_control="correspondence", language="ru"))
    await svc.prefs.load()
    said = _description(await world.alice.slash(world.channel, "umtali practice"))
    assert ("Время на ваши ходы: по переписке (сутки на ход); не успеете — матч проигран."
            ) in said, said
