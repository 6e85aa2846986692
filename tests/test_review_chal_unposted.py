"""A challenge whose post Discord refused (the interaction expired before the bot answered: the
event loop held up, Discord slow) was saved, open, and shown to nobody: it counted among the
challenger's three open challenges for its ten minutes, so that three such failures kept them
from challenging anyone ("too many open challenges") with nothing on show; a practice session
so held its member's one place for a session waiting for its cut. Now one that could not be
posted is closed at once (cancelled). SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from data.store import Limits
from tests.discord_helpers import World


def _statuses(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as c:
        return [row[0] for row in c.execute("SELECT status FROM challenges ORDER BY id")]


async def test_challenges_never_posted_hold_no_open_slot(world: World, db_path: Path) -> None:
    limits = Limits()
    others = [world.guild.add_member(world.env.create_user(f"m{n}"))
              for n in range(limits.open_challenges)]
    for other in others:
        world.clock.advance(limits.challenge_cooldown)
        world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                               message="Unknown interaction", times=1)
        await world.alice.slash(world.channel, "umtali challenge", opponent=other)
        await world.env.settle()
    # Discord's refusals, as the command met them (nobody could be told).
    assert all("10062" in str(e) for e in world.env.errors)
    assert _statuses(db_path) == ["cancelled"] * limits.open_challenges
    world.clock.advance(limits.challenge_cooldown)
    posted = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert posted.acknowledged and not posted.ephemeral, posted.response


async def test_a_practice_session_never_posted_holds_nothing(
        world: World, db_path: Path) -> None:
    # Before, the next one was refused for half a minute: "You have a practice session
    # waiting for you to cut its deck: cut it, or cancel it", with nothing to cut or cancel.
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                           message="Unknown interaction", times=1)
    await world.alice.slash(world.channel, "umtali practice")
    await world.env.settle()
    assert all("10062" in str(e) for e in world.env.errors)
    assert _statuses(db_path) == ["cancelled"]
    offered = await world.alice.slash(world.channel, "umtali practice")
    assert offered.acknowledged and not offered.ephemeral, offered.response
    assert _statuses(db_path) == ["cancelled", "open"]
