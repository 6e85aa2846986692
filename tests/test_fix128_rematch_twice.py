"""fix128: a second challenge of a pair while the first is open is refused; to the one who sent
the first (a Rematch clicked twice), it said "answer it", as if the challenge were theirs to
answer. Now it says theirs is out, and how to withdraw it; to the one challenged, as before.
English and Russian. SimCord."""

from __future__ import annotations

from data.store import Limits
from tests.discord_helpers import World, start_match
from tests.test_records_discord import resign
from tests.test_rematch import final_table

MINE = ("You have already challenged ben: wait for their answer, or withdraw it with its "
        "**Decline** button.")
MINE_RU = ("Вы уже вызвали этого соперника (ben): дождитесь ответа или отзовите вызов кнопкой "
           "**Отклонить**.")
THEIRS = ("There is already an open challenge between you and ada: answer it, or wait until "
          "it expires.")


async def test_rematch_clicked_twice_says_the_challenge_is_yours(
        world: World, locales: dict[int, str]) -> None:
    first = await start_match(world)
    await resign(world, world.bob, first)
    table = final_table(world, first)
    rematch = f"umtali:rm:{first.id}"
    world.clock.advance(Limits().challenge_cooldown)
    offered = await world.alice.click(table, custom_id=rematch)
    assert not offered.ephemeral
    world.clock.advance(Limits().challenge_cooldown)
    again = await world.alice.click(table, custom_id=rematch)
    assert again.ephemeral and again.response.content == MINE, again.response.content
    locales[world.alice.id] = "ru"
    world.clock.advance(Limits().challenge_cooldown)
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert again.ephemeral and again.response.content == MINE_RU, again.response.content
    # The one challenged is told to answer it.
    world.clock.advance(Limits().challenge_cooldown)
    theirs = await world.bob.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert theirs.ephemeral and theirs.response.content == THEIRS, theirs.response.content
