"""fix128: challenges Discord never posted (the command's answer refused: 10062, the
interaction expired first) were shown to nobody and pinged nobody, yet counted against the
limit of challenges to one member not accepted (three in ten minutes): three such failures
kept the challenger from challenging that member at all. They are marked unseen as they are
closed (migration 29), and left out of that limit; one seen and withdrawn still counts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from data.store import Limits, Refused, Store
from tests.discord_helpers import World

SNOWFLAKE = 1_300_000_000_000_000_000


async def test_challenges_never_posted_do_not_count_against_the_pair(
        world: World, db_path: Path) -> None:
    limits = Limits()
    for _ in range(limits.pair_challenges):
        world.clock.advance(limits.challenge_cooldown)
        world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                               message="Unknown interaction", times=1)
        await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
        await world.env.settle()
    assert all("10062" in str(e) for e in world.env.errors)
    with sqlite3.connect(db_path) as c:
        assert [s for (s,) in c.execute("SELECT status FROM challenges")] == \
            ["cancelled"] * limits.pair_challenges
    world.clock.advance(limits.challenge_cooldown)
    posted = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert posted.acknowledged and not posted.ephemeral, posted.response.content


async def _offer(store: Store, now: float) -> int:
    made = await store.create_challenge(
        guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1, challenger=(SNOWFLAKE + 2, "Ada"),
        opponent=(SNOWFLAKE + 3, "Ben"), variant="english", optional_melding=False,
        turn_timer=300, ttl=600, now=now)
    return made.id


async def test_the_pair_limit_counts_the_seen_alone_on_both_backends(
        store_target: str | Path) -> None:
    store = await Store.open(store_target)
    limits, now = Limits(), 1_800_000_000.0
    try:
        for _ in range(limits.pair_challenges):
            now += limits.challenge_cooldown
            assert await store.close_challenge(await _offer(store, now), "cancelled",
                                               unseen=True)
        # Seen and withdrawn: each counts.
        for _ in range(limits.pair_challenges):
            now += limits.challenge_cooldown
            assert await store.close_challenge(await _offer(store, now), "cancelled")
        now += limits.challenge_cooldown
        try:
            await _offer(store, now)
        except Refused as e:
            assert e.reason == "unanswered"
        else:
            raise AssertionError("a fourth seen challenge was let through")
    finally:
        await store.close()
