"""The settings' answer tells the truth about the season summaries' channel as it is now: one
closed to the bot, or deleted, since it was chosen is no place the next summary goes (it is
dropped there, not retried), and an admin reading "season summaries: #channel" would not know
to choose another (review31)."""

from __future__ import annotations

import discord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.discord_helpers import World
from tests.test_seasons_discord import _content, _seasons_on


async def test_the_settings_say_when_the_season_channel_no_longer_takes_summaries(
        world: World, locales: dict[int, str]) -> None:
    summaries, boss = await _seasons_on(world)
    bot_user = world.bot.user
    assert bot_user is not None
    # A moderator closes the channel to the bot after it was chosen.
    world.env.backend.set_overwrite(summaries.id, Overwrite(
        target_id=bot_user.id, type=OverwriteType.MEMBER, allow=0,
        deny=discord.Permissions(send_messages=True).value))
    await world.env.settle()
    closed = _content(await boss.slash(world.channel, "umtali-admin settings"))
    assert (f"- Seasons: monthly\n- Season summaries: <#{summaries.id}>, but I can't post them "
            "there now: I need the **Send Messages** permission there.") \
        in closed, closed
    locales[boss.id] = "ru"
    russian = _content(await boss.slash(world.channel, "umtali-admin settings"))
    assert "**Отправлять сообщения**" in russian, russian
    locales[boss.id] = "en-US"
    # Then deletes it.
    world.env.backend.delete_channel(summaries.id)
    await world.env.settle()
    gone = _content(await boss.slash(world.channel, "umtali-admin settings"))
    assert f"<#{summaries.id}>" not in gone, gone
    assert "- Seasons: monthly\n- Season summaries: not posted (their channel is gone: " \
           "choose another)" in gone, gone
    # A channel that takes them again is told as before.
    again = _content(await boss.slash(world.channel, "umtali-admin settings",
                                      season_channel=world.channel))
    assert f"- Seasons: monthly\n- Season summaries: <#{world.channel.id}>" in again, again
