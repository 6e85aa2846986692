"""The limit on challenges to one member counts those they never answered. A challenge they
accepted whose match then ended with no result (cancelled: the channel refused its first
posts; abandoned: nobody could be reached) was answered: it counted all the same (abandoning
marks it cancelled), and after three such matches in ten minutes the challenger was refused,
told they had challenged the member "several times of late with no answer" (review64's
note)."""

from __future__ import annotations

import pytest

from data.challenges import Refused
from data.store import Limits, Store


async def _accepted_then_ended(store: Store, now: float, how: str) -> None:
    challenge = await store.create_challenge(
        guild_id=1, channel_id=2, challenger=(10, "ada"), opponent=(11, "ben"),
        variant="english", optional_melding=False, turn_timer=300, ttl=600, now=now)
    match_id = await store.create_match(
        guild_id=1, channel_id=2, players=((10, "ada"), (11, "ben")), variant="english",
        turn_timer=300, state="{}", deadline=None, challenge_id=challenge.id, now=now)
    assert await store.abandon_match(match_id, how, now=now + 1) == []


async def test_matches_accepted_then_ended_without_a_result_are_no_unanswered_challenges(
        stores: tuple[Store, Store]) -> None:
    store, _ = stores
    limits = Limits()
    now = 1_000_000.0
    for i in range(limits.pair_challenges):
        await _accepted_then_ended(store, now, ("cancelled", "abandoned")[i % 2])
        now += limits.challenge_cooldown
    # Answered every time: a fourth challenge goes out.
    await store.create_challenge(
        guild_id=1, channel_id=2, challenger=(10, "ada"), opponent=(11, "ben"),
        variant="english", optional_melding=False, turn_timer=300, ttl=600, now=now)


async def test_challenges_withdrawn_still_count(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    limits = Limits()
    now = 1_000_000.0
    for _ in range(limits.pair_challenges):
        challenge = await store.create_challenge(
            guild_id=1, channel_id=2, challenger=(10, "ada"), opponent=(11, "ben"),
            variant="english", optional_melding=False, turn_timer=300, ttl=600, now=now)
        assert await store.close_challenge(challenge.id, "cancelled")
        now += limits.challenge_cooldown
    with pytest.raises(Refused) as refused:
        await store.create_challenge(
            guild_id=1, channel_id=2, challenger=(10, "ada"), opponent=(11, "ben"),
            variant="english", optional_melding=False, turn_timer=300, ttl=600, now=now)
    assert refused.value.reason == "unanswered"
