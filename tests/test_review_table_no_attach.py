"""An admin takes Attach Files away from the bot while a match is played: the table goes on as
text alone where it is, rather than carrying a picture Discord refuses (403, Missing
Permissions), which took the match out of its channel into the players' DMs. Given back, the
picture comes back. The players' own panels (DMs, private answers) need no such permission
and keep theirs."""

from __future__ import annotations

from typing import Any

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from cogs.umtali.pictures import HAND_FILE, TABLE_FILE
from tests.discord_helpers import World, dm_panel, flush, play, start_match, thread_of
from umtali.players import GreedyPlayer

_FILES = discord.Permissions(attach_files=True).value


def _files(world: World, allowed: bool) -> None:
    bot_user = world.bot.user
    assert bot_user is not None
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=bot_user.id, type=OverwriteType.MEMBER, allow=_FILES if allowed else 0,
        deny=0 if allowed else _FILES))


async def _turn(world: World, live: Any) -> None:
    seat = live.session.to_act
    while live.session.to_act == seat and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
        await flush(world)


def _table(world: World, live: Any) -> Any:
    return next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)


async def test_the_table_goes_on_as_text_where_the_bot_may_no_longer_attach_files(
        world: World) -> None:
    live = await start_match(world)
    await flush(world)
    assert [a.filename for a in _table(world, live).attachments] == [TABLE_FILE]
    _files(world, False)
    await _turn(world, live)
    table = _table(world, live)
    assert not live.channel_lost
    assert table.attachments == [] and table.embeds[0].image.url is None
    assert table.embeds[0].fields, "the text is there"
    for seat, actor in enumerate((world.alice, world.bob)):
        assert [a.filename for a in dm_panel(actor, live, seat).attachments] == [HAND_FILE]
    _files(world, True)
    await _turn(world, live)
    assert [a.filename for a in _table(world, live).attachments] == [TABLE_FILE]
