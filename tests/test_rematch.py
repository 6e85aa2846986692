"""Rematch from the final card: same rules and clock, the seats turned round, a challenge the
other player accepts; only the players may ask; practice plays again at once."""

from __future__ import annotations

from typing import Any

from data.store import Limits
from tests.discord_helpers import (
    World,
    custom_ids,
    cut,
    flush,
    start_match,
    start_practice,
    submit_cut,
    thread_of,
)
from tests.test_records_discord import resign


def final_table(world: World, live: Any) -> Any:
    return next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)


async def test_a_rematch_turns_the_seats_round_and_keeps_the_rules(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    first = await start_match(world, variant="russian", optional_melding=True,
                              time_control="blitz")
    assert first.player_ids == (world.alice.id, world.bob.id)
    await resign(world, world.bob, first)
    table = final_table(world, first)
    rematch = f"umtali:rm:{first.id}"
    assert rematch in custom_ids(table)
    # Someone who did not play may not ask, and nothing is made.
    refused = await world.carol.click(table, custom_id=rematch)
    assert refused.ephemeral and "Only the two players" in refused.response.content
    # ada asks (a rematch is a challenge: its limits hold, so not at machine speed); ben is
    # challenged, and will draw first for dealer.
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.alice.click(table, custom_id=rematch)
    assert asked.acknowledged and not asked.ephemeral
    embed = asked.response.embeds[0].description or ""
    assert f"rematch of session #{first.id}" in embed
    assert f"<@{world.bob.id}> seat 0 (draws first for dealer)" in embed
    accept = next(c for c in custom_ids(asked.response) if c.endswith(":accept"))
    taken = await submit_cut(world.bob, await world.bob.click(asked.response, custom_id=accept))
    assert taken.acknowledged
    await flush(world)
    second = next(m for m in svc.matches.values() if not m.over)
    assert second.player_ids == (world.bob.id, world.alice.id)
    assert second.session.rules == first.session.rules
    saved = await svc.store.match(second.id)
    assert saved is not None and saved.time_control == "blitz"
    # While the rematch is on, asking again gets a plain answer.
    again = await world.alice.click(table, custom_id=rematch)
    assert again.ephemeral and "already playing" in again.response.content


async def test_a_practice_rematch_starts_at_once_at_the_same_level(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    first = await start_practice(world)
    await resign(world, world.alice, first)
    table = final_table(world, first)
    world.clock.advance(3600)  # past the cooldown between practice sessions
    again = await world.alice.click(table, custom_id=f"umtali:rm:{first.id}")
    assert again.acknowledged
    await cut(world, again)
    second = next(m for m in svc.matches.values() if not m.over)
    assert second.id != first.id and second.computer_level == first.computer_level
    assert second.player_ids[0] == world.alice.id
