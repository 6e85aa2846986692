"""``/umtali display`` on a server whose matches are text alone: the member's choice is kept,
and the answer says that here it shows no picture (not that their panels show one)."""

from __future__ import annotations

from typing import Any

import discord

from tests.discord_helpers import World


def _said(result: Any) -> str:
    assert result.ephemeral and result.response is not None
    return str(result.response.content or "")


async def test_display_on_a_text_only_server_says_so(world: World) -> None:
    admin = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[admin])
    # Pictures on: no word of the server.
    said = _said(await world.alice.slash(world.channel, "umtali display", pictures=True))
    assert "as a picture" in said and "text alone" not in said
    await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    said = _said(await world.alice.slash(world.channel, "umtali display", four_colour=True))
    # The true thing first (fix158): not "as a picture", taken back after it.
    assert said.startswith("On this server your hand is shown as text alone: its matches have "
                           "pictures off, whatever you choose."), said
    assert said.endswith("On other servers your panels show it as a picture in a four-colour "
                         "deck (♦ blue, ♣ green), with the text beside it."), said
    # Asking for text alone needs no such word.
    said = _said(await world.alice.slash(world.channel, "umtali display", pictures=False))
    assert said == "Your panels show your hand as text alone, without pictures."
