"""The final card's ratings, as the server's language writes decimals: 25.3 in English, 25,3
in Russian, as the boards and records write them (``cogs/umtali/numbers``)."""

from __future__ import annotations

import re

from simcord import Env

from tests.discord_helpers import Clock, World, custom_ids, flush, start_match, table_message
from tests.test_discord_languages import _world


async def _ratings(world: World) -> str:
    """The final card's ratings after ada resigns a session with ben."""
    live = await start_match(world)
    alice = world.alice
    ask = await alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    await alice.click(ask.response, custom_id=yes)
    await flush(world)
    assert live.over
    table = await table_message(world, live)
    card = table.embeds[1].to_dict()
    return "\n".join(f["value"] for f in card.get("fields", [])
                     if f["name"] in ("Ratings", "Рейтинги"))


async def test_the_final_cards_ratings_are_written_as_russian_writes_decimals(
        simcord_env: Env, clock: Clock) -> None:
    ratings = await _ratings(_world(simcord_env, clock, "ru"))
    assert re.search(r"-?\d+,\d → -?\d+,\d", ratings), ratings
    assert not re.search(r"\d\.\d", ratings), ratings


async def test_the_final_cards_ratings_are_written_as_english_writes_decimals(
        simcord_env: Env, clock: Clock) -> None:
    ratings = await _ratings(_world(simcord_env, clock, None))
    assert re.search(r"-?\d+\.\d → -?\d+\.\d", ratings), ratings
