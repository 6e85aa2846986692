"""Challenges to one member, not accepted, are a few in ten minutes (README). The refusal past
them said "Slow down: you can send another challenge in 540 s.": false, for a challenge to
anyone else goes out 20 seconds later, and silent on the member it is about. It names them,
in minutes, as a declined challenge's refusal does."""

from __future__ import annotations

from typing import Any

from data.store import Limits
from tests.discord_helpers import World, challenge, custom_ids


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


async def test_the_refusal_past_the_challenges_to_one_member_names_them(world: World) -> None:
    limits = Limits()
    for _ in range(limits.pair_challenges):
        posted = await challenge(world, world.alice, world.bob)
        decline = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
        # Withdrawn by its challenger, to send it again.
        assert (await world.alice.click(posted.response, custom_id=decline)).acknowledged
    world.clock.advance(limits.challenge_cooldown)
    more = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    said = _text(more)
    assert more.ephemeral
    # Sent first 3 × 20 s ago: Bob can be challenged again in 9 minutes.
    minutes = int(limits.pair_window - limits.pair_challenges * limits.challenge_cooldown) // 60
    assert "ben" in said and f"again in {minutes} minutes" in said, said
    assert "send another challenge in" not in said, said
    # Anyone else may be challenged at once: the limit is Bob's alone.
    assert not (await world.alice.slash(world.channel, "umtali challenge",
                                        opponent=world.carol)).ephemeral
