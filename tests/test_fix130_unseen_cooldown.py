"""fix130: a challenge Discord never showed (the command's answer refused, 10062) was closed
unseen, yet still started the 20 s cooldown: the member, whose command failed on the bot's
side, was told to wait before trying again. It no longer counts; one seen still does."""

from __future__ import annotations

from pathlib import Path

from data.store import Limits, Refused, Store
from tests.discord_helpers import World

SNOWFLAKE = 1_300_000_000_000_000_000


async def test_a_challenge_never_shown_is_sent_again_at_once(world: World) -> None:
    world.clock.advance(Limits().challenge_cooldown)
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                           message="Unknown interaction", times=1)
    await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    await world.env.settle()
    assert world.env.errors and all("10062" in str(e) for e in world.env.errors)
    world.clock.advance(1)
    posted = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert posted.response is not None
    assert posted.acknowledged and not posted.ephemeral, posted.response.content


async def _offer(store: Store, now: float, opponent: int) -> int:
    made = await store.create_challenge(
        guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1, challenger=(SNOWFLAKE + 2, "Ada"),
        opponent=(opponent, "Ben"), variant="english", optional_melding=False,
        turn_timer=300, ttl=600, now=now)
    return made.id


async def test_the_cooldown_counts_the_seen_alone_on_both_backends(
        store_target: str | Path) -> None:
    store = await Store.open(store_target)
    now = 1_800_000_000.0
    try:
        assert await store.close_challenge(await _offer(store, now, SNOWFLAKE + 3),
                                           "cancelled", unseen=True)
        now += 1
        # Never shown: no wait. Seen (and withdrawn): the cooldown holds, even for another.
        assert await store.close_challenge(await _offer(store, now, SNOWFLAKE + 3),
                                           "cancelled")
        now += 1
        try:
            await _offer(store, now, SNOWFLAKE + 4)
        except Refused as e:
            assert e.reason == "cooldown"
        else:
            raise AssertionError("a challenge seen a second ago let another through")
    finally:
        await store.close()
