"""The system's clock set back (NTP, a virtual machine's clock corrected): a challenge saved
before it is stamped ahead of every later "now", and the 20-second cooldown between a
member's challenges held them back for the whole step ("Slow down: you can send another
challenge in 535 s", review150). A row stamped further ahead than the cooldown it would hold
is no reason to wait. SimCord, virtual time (``Clock.step``: the wall clock set)."""

from __future__ import annotations

from data.store import Limits
from tests.discord_helpers import World, challenge

#: Twenty minutes: the step back.
STEP = 1200.0


async def test_a_challenge_after_the_clock_was_set_back_is_not_held_for_the_step(
        world: World) -> None:
    await challenge(world, world.alice, world.bob)
    world.clock.step(-STEP)
    world.clock.advance(Limits().challenge_cooldown + 5)
    sent = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert sent.acknowledged and not sent.ephemeral, sent.response and sent.response.content


async def test_the_cooldown_still_holds_on_a_steady_clock(world: World) -> None:
    await challenge(world, world.alice, world.bob)
    world.clock.advance(2)
    sent = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert sent.ephemeral and "Slow down" in (sent.response.content or ""), sent
