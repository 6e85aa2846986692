"""A server's settings changed through one process reach the matches another process holds (a
DM's click goes to shard 0's process, which then holds the match): its tables lose their
pictures, its public messages take the server's new language, within a renewal of the leases,
as they do in the process that saved the change."""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match, table_message, thread_of
from tests.processes.helpers import greedy_via, main_of, row, settle
from umtali.moves import MoveKind


async def _to_turn_end_via(world: World, svc: MatchService, match_id: int) -> None:
    while (await greedy_via(world, svc, match_id)).kind is not MoveKind.DISCARD:
        await settle(world, main_of(world), svc)
    await settle(world, main_of(world), svc)


async def test_settings_saved_in_one_process_reach_the_matches_another_holds(
        world: World, other: MatchService) -> None:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    live = await start_match(world)
    main = main_of(world)
    await _to_turn_end_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    table: Any = await table_message(world, live)
    assert [a.filename for a in table.attachments] == ["table.png"]
    # The admin's command reaches the bot's own process.
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False,
                          language="ru")
    assert ok.ephemeral and "- Pictures: off" in str(ok.response.content), ok.response.content
    world.clock.advance(RENEW_EVERY)
    await main.check_timers()
    await other.check_timers()
    await _to_turn_end_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    thread = thread_of(world, live)
    table = next(m for m in thread.history() if m.id == live.table_message_id)
    assert table.attachments == [] and table.embeds[0].fields
    assert "нажмите «Мои карты»" in str(table.embeds[0].footer.text), table.embeds[0].footer
