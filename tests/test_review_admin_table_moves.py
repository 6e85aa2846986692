"""``/umtali table`` bringing a match whose channel was lost back to a channel: only to one the
opponent can see, or the turns announced there (their pings above all) would reach only one of
the two players, and the other would run out of time unaware."""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, play, start_match
from umtali.players import GreedyPlayer


def _text(result: Any) -> str:
    assert result.response is not None
    embeds = result.response.embeds
    return str(result.response.content or "") + " ".join(
        str(e.description or "") for e in embeds)


async def _lost(world: World) -> LiveMatch:
    """A match whose thread was deleted: it goes on in DMs."""
    live = await start_match(world, turn_timer=5)
    world.env.inject_error("*", f"/channels/{live.channel_id}/*", status=404, code=10003,
                           message="Unknown Channel", times=None)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost and not live.over
    return live


async def test_the_table_is_not_brought_where_the_opponent_cannot_see(
        world: World, locales: dict[int, str]) -> None:
    live = await _lost(world)
    staff = world.guild.create_text_channel(
        "staff", overwrites={world.bob: discord.PermissionOverwrite(view_channel=False)})
    before = len(staff.history())
    r = await world.alice.slash(staff, "umtali table")
    assert r.acknowledged and r.ephemeral, _text(r)
    assert "ben can't see this channel" in _text(r), _text(r)
    await flush(world)
    assert live.channel_lost and len(staff.history()) == before
    locales[world.alice.id] = "ru"
    r = await world.alice.slash(staff, "umtali table")
    assert r.ephemeral and "ben не видит этот канал" in _text(r), _text(r)
    # Where both can see, it comes back as ever.
    r = await world.alice.slash(world.channel, "umtali table")
    assert r.acknowledged and not r.ephemeral, _text(r)
    await flush(world)
    assert not live.channel_lost and live.channel_id == world.channel.id
