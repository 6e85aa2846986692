"""review44: a match with no clock abandoned by its remaining player's Yes to resign, because
the opponent left the server (50da19a). Its channel is not lost and both players can still be
reached: the remaining player's DM panel must not say the bot could no longer reach the match's
channel (the reason given for a match abandoned with its channel lost), but why it ended.
SimCord, a real SQLite file."""

from __future__ import annotations

from tests.discord_helpers import World, dm_panel, flush, start_match
from tests.test_review43_opponent_left import ASKED_LEFT, _resign, gone_a_day


def _said(message: object) -> str:
    embeds = getattr(message, "embeds", []) or []
    return "\n".join(str(e.description or "") for e in embeds)


async def test_the_panel_says_the_opponent_left_not_that_the_channel_was_lost(
        world: World) -> None:
    live = await start_match(world, turn_timer=0)
    world.guild.remove_member(world.bob)
    await world.env.settle()
    await gone_a_day(world)
    await _resign(world, ASKED_LEFT)
    await flush(world)
    assert live.over and live.abandoned and not live.channel_lost
    said = _said(dm_panel(world.alice, live, 0))
    assert "Nobody wins it" in said, said
    assert "this match's channel" not in said, said
    assert "a player left the server" in said, said
