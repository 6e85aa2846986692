"""``/umtali table`` in a match's channel that became read-only: a player who may not write
there gets the table privately, as boards and stats come there (tests/test_fuzz_read_only.py),
with a short reason; it was posted again for them, for everyone, where nobody may post. Where
the bot may not post, the command is refused as challenge and practice are."""

from __future__ import annotations

from typing import Any

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.discord_helpers import World, custom_ids, flush, start_match, thread_of

_WRITING = discord.Permissions(send_messages=True, send_messages_in_threads=True).value


def _quiet(world: World, target_id: int, kind: OverwriteType, *, deny: bool = True) -> None:
    """The match's channel (its thread follows it) becomes read-only for ``target_id`` (or,
    not ``deny``, writable for it whatever else says)."""
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=target_id, type=kind, allow=0 if deny else _WRITING,
        deny=_WRITING if deny else 0))


def _said(result: Any) -> str:
    assert result.response is not None
    embeds = result.response.embeds
    return str(result.response.content or "") + (str(embeds[0].description) if embeds else "")


async def test_a_read_only_match_channel_gets_the_table_privately(
        world: World, locales: dict[int, str]) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    old, posted = live.table_message_id, len(thread.history())
    bot_user = world.bot.user
    assert bot_user is not None
    # Read-only for members; the bot may still post (announcements, say).
    _quiet(world, world.guild.default_role.id, OverwriteType.ROLE)
    _quiet(world, bot_user.id, OverwriteType.MEMBER, deny=False)
    r = await world.alice.slash(thread, "umtali table")
    assert r.acknowledged and r.ephemeral, _said(r)
    assert ("You can't send messages in this channel, so the table is not posted again here. "
            "A snapshot") in _said(r), _said(r)
    assert "snapshot" in _said(r) and custom_ids(r.response) == []
    locales[world.bob.id] = "ru"
    r = await world.bob.slash(thread, "umtali table")
    assert r.ephemeral and "Вы не можете писать в этом канале, поэтому стол" in _said(r), _said(r)
    await flush(world)
    # Nothing was posted, and the live table stayed where it was, buttons and all.
    assert live.table_message_id == old and len(thread.history()) == posted
    assert custom_ids(next(m for m in thread.history() if m.id == old))


async def test_where_the_bot_may_not_post_the_table_is_refused(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    old, posted = live.table_message_id, len(thread.history())
    bot_user = world.bot.user
    assert bot_user is not None
    _quiet(world, bot_user.id, OverwriteType.MEMBER)
    r = await world.alice.slash(thread, "umtali table")
    assert r.ephemeral and "I can't host a match in this channel" in _said(r), _said(r)
    assert live.table_message_id == old and len(thread.history()) == posted
