"""A locked thread is read-only for members who may not manage threads (Discord's rule since
2023), whatever their Send Messages in Threads permission says: ``/umtali table`` there gives
the table privately, as in any channel where the member may not write, and boards come
privately too; it was posted again for everyone, where only moderators may write. A member
who may manage threads still may."""

from __future__ import annotations

from typing import Any

import discord

from tests.discord_helpers import World, custom_ids, flush, start_match, thread_of


def _lock(world: World, thread: Any) -> None:
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"locked": True})


def _said(result: Any) -> str:
    assert result.response is not None
    embeds = result.response.embeds
    return str(result.response.content or "") + (str(embeds[0].description) if embeds else "")


async def test_a_locked_match_thread_gets_the_table_privately(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    assert thread is not world.channel
    _lock(world, thread)
    await flush(world)
    old, posted = live.table_message_id, len(thread.history())
    r = await world.alice.slash(thread, "umtali table")
    assert r.acknowledged and r.ephemeral, _said(r)
    assert "You can't send messages in this channel, so the table is not posted again here." \
        in _said(r), _said(r)
    assert custom_ids(r.response) == []
    board = await world.bob.slash(thread, "umtali leaderboard")
    assert board.acknowledged and board.ephemeral
    await flush(world)
    assert live.table_message_id == old and len(thread.history()) == posted
    # A moderator (Manage Threads) may write in a locked thread: a player who is one gets the
    # table posted again, as anywhere they may write.
    role = world.guild.create_role("mod", permissions=discord.Permissions(manage_threads=True))
    world.env.backend.add_member_role(world.guild.id, world.alice.id, role.id)
    r = await world.alice.slash(thread, "umtali table")
    assert r.acknowledged and not r.ephemeral, _said(r)
    await flush(world)
    assert live.table_message_id != old
