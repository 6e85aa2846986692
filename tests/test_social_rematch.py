"""A rematch is of a session played to a result: a cancelled or abandoned match (no winner)
never showed a Rematch button, and a forged one gets the usual short answer, making no
challenge (it once posted "a rematch of session #N" for a session never played). And a
member the server denies the bot's commands in a channel cannot start a match there by the
Rematch button either."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from data.store import Limits
from tests.discord_helpers import World, start_match
from tests.loopback.driver import query, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged
from tests.test_records_discord import resign
from tests.test_rematch import final_table


@pytest.mark.parametrize("how", ["cancelled", "abandoned"])
async def test_no_rematch_of_a_session_without_a_result(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        svc = bot.matches
        assert svc is not None
        assert await svc.abandon(svc.matches[saved.id], how)
        custom_id = f"umtali:rm:{saved.id}"
        answer = await server.click(ada, forged(server, custom_id), custom_id)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "cannot be played again here" in answer.callback["content"]
        assert [r["status"] for r in query(db, "SELECT status FROM challenges")] == ["cancelled"]
        assert not server.errors


async def test_no_rematch_for_a_member_denied_the_bots_commands_here(
        world: World, locales: dict[int, str]) -> None:
    first = await start_match(world)
    await resign(world, world.bob, first)
    table = final_table(world, first)
    rematch = f"umtali:rm:{first.id}"
    # The server takes the use of application commands from ada in the match's channel
    # (its thread follows the channel).
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.alice.id, type=OverwriteType.MEMBER, allow=0,
        deny=discord.Permissions(use_application_commands=True).value))
    world.clock.advance(Limits().challenge_cooldown)
    refused = await world.alice.click(table, custom_id=rematch)
    assert refused.ephemeral and "can't ask for a rematch here" in refused.response.content
    locales[world.alice.id] = "ru"
    refused = await world.alice.click(table, custom_id=rematch)
    assert refused.ephemeral and "реванш здесь предложить нельзя" in refused.response.content
    assert world.bot.matches is not None
    assert await world.bot.matches.store.open_challenge_between(
        world.guild.id, world.alice.id, world.bob.id, world.clock()) is None
    # ben may still ask.
    asked = await world.bob.click(table, custom_id=rematch)
    assert asked.acknowledged and not asked.ephemeral
