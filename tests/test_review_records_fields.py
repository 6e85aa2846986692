"""Stats reviewed: a field that cannot hold every line keeps whole lines (a cut line showed a
broken timestamp or a stray backslash)."""

from __future__ import annotations

import discord

from tests.discord_helpers import World
from tests.test_records import forfeited

#: A hostile nickname: 32 characters, each escaped in a message (64 shown).
HOSTILE = "_*" * 16


async def test_recent_sessions_keep_whole_lines_on_a_russian_server(world: World) -> None:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    assert (await boss.slash(world.channel, "umtali-admin settings", language="ru")).acknowledged
    assert world.bot.matches is not None
    store = world.bot.matches.store
    rival = world.env.create_user(HOSTILE)
    for n in range(5):
        await forfeited(store, (world.bob.id, "ben"), (rival.id, HOSTILE), how="timed out",
                        guild=world.guild.id, now=1_800_000_000.0 + n)
    shown = await world.bob.slash(world.channel, "umtali stats", versus=rival)
    assert shown.acknowledged and shown.response is not None
    fields = {f.name: str(f.value) for f in shown.response.embeds[0].fields}
    recent = fields["Последние матчи на этом сервере"].split("\n")
    versus = next(v for k, v in fields.items() if k.startswith("Личные встречи")).split("\n")
    for lines in (recent, versus[1:]):
        assert lines and all(line.endswith(":R>") for line in lines), lines
    assert len(recent) >= 4  # as many as fit, newest first
    assert recent[0].startswith("`#5`")
