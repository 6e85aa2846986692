"""A rematch says who accepted (the challenged member, though the seats are turned round), and
its private refusals show the other player's name escaped, as ``/umtali challenge`` does."""

from __future__ import annotations

from simcord import Env

from cogs.umtali.names import safe_name
from data.store import Limits
from tests.discord_helpers import Clock, World, custom_ids, flush, start_match, submit_cut
from tests.test_records_discord import resign
from tests.test_rematch import final_table


async def test_a_rematch_names_the_member_who_accepted(world: World) -> None:
    first = await start_match(world)
    await resign(world, world.bob, first)
    # ada asks for the rematch; ben accepts it (and sits in seat 0 this time).
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(final_table(world, first), custom_id=f"umtali:rm:{first.id}")
    accept = next(c for c in custom_ids(asked.response) if c.endswith(":accept"))
    taken = await submit_cut(world.bob, await world.bob.click(asked.response, custom_id=accept))
    assert taken.acknowledged
    await flush(world)
    said = asked.response.embeds[0].description or ""
    assert "ben accepted." in said and "ada accepted." not in said, said


async def test_a_rematch_refusal_escapes_the_other_name(simcord_env: Env, clock: Clock) -> None:
    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("games")
    nick = "<@&1> **BIG** ||s||"
    world = World(simcord_env, guild, channel,
                  guild.add_member(simcord_env.create_user("ada")),
                  guild.add_member(simcord_env.create_user("x"), nick=nick),
                  guild.add_member(simcord_env.create_user("cy")), clock)
    first = await start_match(world)
    await resign(world, world.bob, first)
    table = final_table(world, first)
    world.clock.advance(Limits().challenge_cooldown)
    await world.alice.click(table, custom_id=f"umtali:rm:{first.id}")
    # Asking again while the first rematch is open is refused privately, naming the other.
    world.clock.advance(Limits().challenge_cooldown)
    again = await world.alice.click(table, custom_id=f"umtali:rm:{first.id}")
    content = again.response.content
    assert again.ephemeral and "You have already challenged" in content, content
    assert safe_name(nick) in content and "**BIG**" not in content and "<@&1>" not in content
