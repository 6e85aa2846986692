"""``/umtali-admin``: the server's settings and the command sync live in a group of their own,
which Discord hides from members without Manage Server; the player group has neither."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from simcord import assert_error
from simcord.backend.errors import SetupError

from tests.discord_helpers import World
from tests.loopback.harness import bot_in_process, loopback_server

MANAGE_GUILD = discord.Permissions(manage_guild=True).value


def _names(command: dict[str, Any]) -> set[str]:
    return {o["name"] for o in command.get("options", [])}


async def test_discord_hides_the_admin_group_from_members(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        # What the bot synced, as Discord received it.
        synced = {c["name"]: c for c in server.commands}
        admin, player = synced["umtali-admin"], synced["umtali"]
        assert _names(admin) == {"settings", "end-match", "matches", "sync"}
        assert int(admin["default_member_permissions"]) == MANAGE_GUILD
        assert admin["contexts"] == [0] or admin.get("dm_permission") is False
        assert not _names(player) & {"settings", "end-match", "matches", "sync"}
        assert {"challenge", "play", "resign", "leaderboard", "stats"} <= _names(player)
        # Members see the player group: it asks for no permission.
        assert player["default_member_permissions"] is None


async def test_members_do_not_see_it_and_the_checks_stay(world: World) -> None:
    with pytest.raises(SetupError, match="not visible"):
        await world.alice.slash(world.channel, "umtali-admin settings", threads=False)
    # A server may grant the group to anyone: the commands still check for themselves.
    [admin] = [c for c in await world.bot.tree.fetch_commands() if c.name == "umtali-admin"]
    world.guild.set_command_permissions(admin, {world.alice: True})
    refused = await world.alice.slash(world.channel, "umtali-admin settings", threads=False)
    assert refused.ephemeral and "Manage Server" in str(refused.response.content)
    assert_error(world.env, contains="Manage")
    assert world.bot.matches is not None
    assert (await world.bot.matches.store.guild_settings(world.guild.id)).threads
    sync = await world.alice.slash(world.channel, "umtali-admin sync")
    assert sync.ephemeral and "owner" in str(sync.response.content)
