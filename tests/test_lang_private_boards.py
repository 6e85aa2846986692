"""A board or a record a member may not post comes to them privately: in their own language,
as the table's private snapshot does, not the server's (nobody else sees it)."""

from __future__ import annotations

import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from tests.discord_helpers import World
from tests.test_read_only_table import _WRITING


def _read_only(world: World) -> None:
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.guild.default_role.id, type=OverwriteType.ROLE, allow=0,
        deny=_WRITING))


@pytest.mark.xfail(strict=False, reason="cogs/umtali/records.py words a private board and "
                                       "record in the server's language")
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
