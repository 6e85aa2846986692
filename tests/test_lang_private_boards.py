"""A board or a record a member may not post comes to them privately: in their own language,
as the table's private snapshot does, not the server's (nobody else sees it)."""

from __future__ import annotations

import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.discord_helpers import World
from tests.test_read_only_table import _WRITING
from tests.test_records import forfeited
from tests.test_records_discord import text_of
from tests.test_review55_newcomer import _buttons


def _read_only(world: World) -> None:
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.guild.default_role.id, type=OverwriteType.ROLE, allow=0,
        deny=_WRITING))


@pytest.mark.parametrize("command", ["umtali leaderboard", "umtali stats"])
async def test_a_private_board_or_record_is_in_the_members_language(
        world: World, locales: dict[int, str], command: str) -> None:
    _read_only(world)
    locales[world.alice.id] = "ru"
    shown = await world.alice.slash(world.channel, command)
    assert shown.acknowledged and shown.ephemeral
    assert shown.response is not None
    title = str(shown.response.embeds[0].title)
    assert "Umtali" not in title, title  # "Умтали · …", "Таблица лидеров Умтали · …"


async def test_a_page_of_a_private_board_stays_in_the_members_language_and_a_public_one_not(
        world: World, locales: dict[int, str]) -> None:
    assert world.bot.matches is not None
    store = world.bot.matches.store
    for i in range(12):  # 24 on the board: three pages
        await forfeited(store, (1000 + i, f"Gone {i}"), (2000 + i, f"Left {i}"),
                        guild=world.guild.id, now=1000.0 + i)
    locales[world.alice.id] = "ru"
    prefix = f"umtali:lb:{world.guild.id}:server"
    # Posted in the channel: the server's language, whoever turns its page.
    public = await world.alice.slash(world.channel, "umtali leaderboard")
    assert not public.ephemeral and "Page 1 of 3" in text_of(public)
    # Its buttons in words, no arrow for a screen reader to read out as text.
    assert list(_buttons(public.response)) == ["Previous page", "Next page"]
    turned = await world.alice.click(public.response,
                                     custom_id=f"{prefix}:2:{world.alice.id}")
    assert "Page 2 of 3" in text_of(turned)
    # For the member alone: theirs, page after page.
    _read_only(world)
    private = await world.alice.slash(world.channel, "umtali leaderboard")
    assert private.ephemeral and "Страница 1 из 3" in text_of(private), text_of(private)
    assert list(_buttons(private.response)) == ["Предыдущая страница", "Следующая страница"]
    turned = await world.alice.click(private.response, custom_id=f"{prefix}:2")
    assert "Страница 2 из 3" in text_of(turned), text_of(turned)
