"""An admin who plays a rated match cannot end it with no result (review121: a manager losing
could end their own match and keep their rating, the opponent told only that "an admin" ended
it). They resign, as any player; a practice match, rated for nobody, they may end. And the
channel is told which admin ended a match."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from tests.discord_helpers import (
    World,
    accept,
    challenge,
    end_match_as,
    flush,
    manager,
    the_match,
    thread_of,
)


def _status(db_path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute("SELECT status, how, ended_by FROM matches").fetchall()


async def test_an_admin_cannot_end_their_own_rated_match(world: World, db_path: Path) -> None:
    boss = manager(world)
    offered = await challenge(world, boss, world.bob)
    await accept(world.bob, offered.response)
    await flush(world)
    live = the_match(world)
    for options in ({"member": boss}, {"member": world.bob}, {"match": str(live.id)}):
        answer = await boss.slash(world.channel, "umtali-admin end-match", **options)
        said = str(answer.response.content)
        assert answer.ephemeral and "/umtali resign" in said and "their own match" in said, said
        assert _status(db_path) == [("active", None, None)]
    assert not live.over
    # Another admin may end it, and the channel is told who did.
    other = manager(world, "chief")
    answer = await end_match_as(world, other, member=boss)
    assert "no result" in str(answer.response.content), answer.response.content
    await flush(world)
    assert _status(db_path) == [("finished", "abandoned", other.id)]
    told = [m.content for m in thread_of(world, live).history()
            if "ended this match: no result" in (m.content or "")]
    assert told and "chief" in told[0], told
