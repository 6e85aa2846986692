"""fix130: a member at their limit of open challenges, asking again and again, does not make
the bot ask Discord for each of those challenges' messages each time: one found on show is
taken to be there a while (``challenge_posts.SEEN_FOR``)."""

from __future__ import annotations

from typing import Any

from cogs.umtali.challenge_posts import SEEN_FOR
from tests.discord_helpers import World


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _looks(world: World) -> int:
    """Requests for a single message (what ``drop_lost`` asks to know one is still there)."""
    return sum(r.method == "GET" and "/messages/" in r.path for r in world.env.http_requests)


async def test_refused_open_challenges_look_at_each_message_once_a_while(
        world: World) -> None:
    extra = [world.guild.add_member(world.env.create_user(f"m{i}")) for i in range(3)]
    for member in extra:
        world.clock.advance(21)
        r = await world.alice.slash(world.channel, "umtali challenge", opponent=member)
        assert not r.ephemeral, _text(r)
    world.clock.advance(21)
    before = _looks(world)
    for _ in range(6):
        held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
        assert held.ephemeral and "too many open challenges" in _text(held), _text(held)
        world.clock.advance(1)
    # Each of the three open challenges looked at once, not once per attempt.
    assert _looks(world) - before == 3
    # A while later they are looked at again (one deleted meanwhile would be found gone).
    world.clock.advance(SEEN_FOR)
    held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert held.ephemeral and "too many open challenges" in _text(held), _text(held)
    assert _looks(world) - before == 6


async def test_the_look_of_a_while_ago_holds_when_the_wall_clock_is_set(world: World) -> None:
    """The note of a challenge found on show lives in this process's memory: timed by its
    steady clock, a wall clock set forward (or back) does not end it (a look at every
    challenge at each refused attempt again)."""
    extra = [world.guild.add_member(world.env.create_user(f"m{i}")) for i in range(3)]
    for member in extra:
        world.clock.advance(21)
        r = await world.alice.slash(world.channel, "umtali challenge", opponent=member)
        assert not r.ephemeral, _text(r)
    world.clock.advance(21)
    before = _looks(world)
    for step in (0.0, 2 * SEEN_FOR, -4 * SEEN_FOR):
        world.clock.step(step)
        held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
        assert held.ephemeral and "too many open challenges" in _text(held), _text(held)
    assert _looks(world) - before == 3
