"""Practice sessions asked for and cancelled again and again: each is posted in the channel,
so they are limited as challenges are (a few within the practice cooldown). Before, Cancel made
room for another at once, and a member could post one every few seconds, for ever: the
practice cooldown counts sessions started, and none was. A cancel still makes room for another
at once, twice. SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from data.store import Limits
from tests.discord_helpers import World, custom_ids, flush


def _offers(db_path: Path) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM challenges WHERE computer_level IS NOT "
                             "NULL").fetchone()[0])


#: Practice sessions a member may ask for within the practice cooldown (``Limits``).
OFFERS = 3


async def _ask_and_cancel(world: World) -> Any:
    offered = await world.alice.slash(world.channel, "umtali practice")
    if offered.ephemeral:
        return offered
    [cancel] = [c for c in custom_ids(offered.response) if c.endswith(":cancel")]
    cancelled = await world.alice.click(offered.response, custom_id=cancel)
    assert cancelled.acknowledged and not cancelled.ephemeral
    await flush(world)
    return offered


async def test_practice_sessions_cancelled_at_once_are_limited(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    limits = Limits()
    for _ in range(OFFERS):
        assert not (await _ask_and_cancel(world)).ephemeral
    posts = len(world.channel.history())
    refused = await _ask_and_cancel(world)
    assert refused.ephemeral
    assert refused.response.content.startswith(
        "Slow down: you can start another practice session in ")
    locales[world.alice.id] = "ru"
    refused = await _ask_and_cancel(world)
    assert refused.ephemeral and "тренировк" in refused.response.content
    assert len(world.channel.history()) == posts and _offers(db_path) == OFFERS
    # Once the first of them is older than the practice cooldown, one more may be asked for.
    world.clock.advance(limits.practice_cooldown)
    assert not (await _ask_and_cancel(world)).ephemeral
