"""A member accepts a challenge whose challenger has meanwhile started another match: the answer
is for the one who reads it, the member who accepted. It names the challenger as the one
playing and tells the reader what they can do (accept again later), not to finish a match that
is not theirs."""

from __future__ import annotations

import pytest

from tests.discord_helpers import World, challenge, custom_ids, flush, submit_cut


@pytest.mark.parametrize("lang, said, wrong", [
    ("en-US", "is already playing a match on this server: accept again once that match is "
              "over", "finish it first"),
    ("ru", "уже играет матч на этом сервере: примите вызов снова, когда тот матч закончится",
     "сначала его нужно закончить"),
])
async def test_the_accepter_is_not_told_to_finish_the_challengers_match(
        world: World, locales: dict[int, str], lang: str, said: str, wrong: str) -> None:
    locales[world.bob.user.id] = lang
    to_bob = await challenge(world, world.alice, world.bob)
    to_cy = await challenge(world, world.alice, world.carol)
    accept = next(c for c in custom_ids(to_cy.response) if c.endswith(":accept"))
    assert (await submit_cut(world.carol,
        await world.carol.click(to_cy.response, custom_id=accept))).acknowledged
    await flush(world)
    # ada now plays cy; ben accepts her challenge to him.
    accept = next(c for c in custom_ids(to_bob.response) if c.endswith(":accept"))
    busy = await submit_cut(world.bob, await world.bob.click(to_bob.response, custom_id=accept))
    assert busy.ephemeral
    text = str(busy.response.content or "")
    assert f"<@{world.alice.user.id}> {said}" in text, text
    assert wrong not in text
