"""Right-to-left server names (Hebrew, Arabic) in the bot's English and Russian text: the
boards' titles and the DM telling the players a server removed the bot. A server's name is put
into text between FSI and PDI when it holds a right-to-left letter, as a member's name is
(tests/test_names_bidi.py): else the bidi algorithm lays out the signs at its end in the
sentence's direction, not the name's ("שרת!" read "תרש!" in place, "!תרש" alone). What a
reader sees is worked out by python-bidi. No channel's name enters the bot's text: a channel
is named with a mention (``<#id>``), which Discord draws."""

from __future__ import annotations

import pytest

from cogs.umtali.records import board_embed
from data.models import BoardPage
from tests.discord_helpers import World, flush, start_match
from tests.test_names_bidi import shown, unmarked
from umtali.i18n import tr_for

#: "Railway Club!" in Hebrew and in Arabic, and an Arabic name with a number after it.
SERVERS = ["מועדון הרכבת!", "نادي السكك!", "(שרת)", "نادي 7."]
#: A server's name may be 100 characters long; a member's is cut to 32.
LONG = "מועדון הרכבת של העיר הגדולה והיפה מאוד!"


def in_place(text: str, server: str) -> str:
    """``text`` as it should read: its words as written, the server's name as it reads
    alone."""
    return text.replace(server, shown(server, None))


@pytest.mark.parametrize("server", SERVERS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_boards_title_reads_the_servers_name_in_place(lang: str, server: str) -> None:
    tr = tr_for(lang)
    empty = BoardPage(1, 1, 0, ())
    for scope, seasons_on in (("server", False), ("server", True), ("2026-12", True)):
        title = str(board_embed(empty, scope, server, tr, seasons_on).title)
        plain = title.replace("\u2068", "").replace("\u2069", "")
        assert shown(title) == in_place(plain, server), title
        assert shown(title, None) == in_place(plain, server), title


@pytest.fixture
def rtl_server(world: World) -> World:
    """A server of the same SimCord with a right-to-left name, and members dan, eve and fay."""
    guild = world.env.create_guild(SERVERS[0])
    dan, eve, fay = (guild.add_member(world.env.create_user(n)) for n in ("dan", "eve", "fay"))
    return World(world.env, guild, guild.create_text_channel("games"), dan, eve, fay,
                 world.clock)


async def test_the_leaderboards_title_on_discord(rtl_server: World) -> None:
    world, server = rtl_server, SERVERS[0]
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    assert board.acknowledged and board.response is not None
    title = unmarked(str(board.response.embeds[0].title))
    assert shown(title) == f"Umtali leaderboard · {shown(server, None)}", title


async def test_the_removal_dm_reads_the_servers_name_in_place_and_whole(
        rtl_server: World) -> None:
    """The DM telling each player the server removed the bot, its name 40 characters long: in
    place, and whole (a member's name is cut to 32; a server's is not)."""
    world = rtl_server
    world.env.backend.edit_guild(world.guild.id, {"name": LONG})
    await world.env.settle()
    live = await start_match(world)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    await flush(world)
    assert live.over
    for member, other in ((world.alice, "eve"), (world.bob, "dan")):
        message = member.user.dm_channel.last_message
        said = unmarked(str(message.content))
        assert said.startswith("I was removed from the server "), said
        assert shown(said) == (
            f"I was removed from the server {shown(LONG, None)}, so match #{live.id} against "
            f"{other} ended there with no result. Nobody wins it and no rating changed; you are "
            "free to start another."), said
