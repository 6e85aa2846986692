"""fix175 (review163's nit): a challenge whose message's id only its poster knew (its save
failed) was cancelled by another process's ``drop_lost`` 30 s on (taken as never posted, to
make way for the pair's next challenge); the poster's tick then saved the id, found it
cancelled and edited nothing: its buttons stayed for good. The poster now says it cancelled
on its message, unless a withdraw click said so already. Two processes, one database, each
backend."""

from __future__ import annotations

from typing import Any

from cogs.umtali.challenge_expiry import CANCELLED, expire_challenges
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, challenge, custom_ids
from tests.processes.helpers import main_of, settle, via
from tests.test_fix161_stop_withdraws import _challenge_id, _shown


async def _posted_unsaved(world: World) -> tuple[Any, int]:
    """ada's challenge to ben, posted through the bot's process, whose message's id the
    database never got: known in that process's memory alone."""
    main = main_of(world)
    posted = await challenge(world, world.alice, world.bob)
    challenge_id = _challenge_id(posted)
    async with main.store.db.transaction() as c:
        await c.execute("UPDATE challenges SET message_id = NULL WHERE id = ?", (challenge_id,))
    main.unsaved_posts[challenge_id] = posted.response.id
    return posted, challenge_id


async def _status(world: World, challenge_id: int) -> str:
    ch = await main_of(world).store.challenge(challenge_id)
    assert ch is not None
    return ch.status


async def test_a_challenge_cancelled_elsewhere_as_never_posted_is_said_by_its_poster(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    posted, challenge_id = await _posted_unsaved(world)
    world.clock.advance(31)
    with via(world, other):
        # ada challenges ben again through p2: its drop_lost takes the first as never posted.
        again = await challenge(world, world.alice, world.bob)
        await settle(world, other)
    assert await _status(world, challenge_id) == "cancelled"
    first = _shown(world.channel, posted.response.id)
    assert custom_ids(first) != []  # (p2 knew no message to edit)
    world.clock.advance(10)
    await expire_challenges(world.bot)
    await settle(world, main, other)
    first = _shown(world.channel, posted.response.id)
    assert custom_ids(first) == [], "the cancelled challenge's buttons stayed for good"
    assert CANCELLED in str(first.embeds[0].description)
    assert custom_ids(_shown(world.channel, again.response.id)) != []  # (the new one stands)
    assert challenge_id not in main.unsaved_posts


async def test_a_challenge_withdrawn_by_a_click_elsewhere_keeps_what_it_says(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    posted, challenge_id = await _posted_unsaved(world)
    decline = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
    with via(world, other):
        clicked = await world.alice.click(posted.response, custom_id=decline)
        await settle(world, other)
    assert clicked.acknowledged and await _status(world, challenge_id) == "cancelled"
    said = str(_shown(world.channel, posted.response.id).embeds[0].description)
    assert "withdrew the challenge" in said
    world.clock.advance(10)
    await expire_challenges(world.bot)
    await settle(world, main, other)
    shown = _shown(world.channel, posted.response.id)
    assert custom_ids(shown) == [] and str(shown.embeds[0].description) == said
