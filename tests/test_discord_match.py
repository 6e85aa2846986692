"""A match on Discord, through the real discord.py code path against SimCord."""

from __future__ import annotations

from typing import Any

from data.store import Limits
from tests.discord_helpers import World, challenge, custom_ids, flush, start_match, submit_cut


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


async def test_challenge_accepted_starts_a_session_in_a_thread(world: World) -> None:
    result = await challenge(world, world.alice, world.bob)
    assert result.response is not None
    embed = result.response.embeds[0]
    assert "challenges" in (embed.description or "")
    ids = custom_ids(result.response)
    assert [i.rsplit(":", 1)[1] for i in ids] == ["accept", "decline"]

    own = await submit_cut(world.alice, await world.alice.click(
        result.response, custom_id=ids[0]))
    assert own.ephemeral and "your own challenge" in _text(own)
    other = await submit_cut(world.carol, await world.carol.click(
        result.response, custom_id=ids[0]))
    assert other.ephemeral and "Only the challenged member" in _text(other)

    accepted = await submit_cut(world.bob, await world.bob.click(
        result.response, custom_id=ids[0]))
    assert accepted.acknowledged
    await flush(world)
    # The challenge shows the draw for first dealer, and its buttons are gone.
    message = world.channel.history()[0]
    assert "Draw for first dealer" in (message.embeds[0].description or "")
    assert message.components == []
    # The session plays in a thread made from the challenge.
    [thread] = world.channel.threads
    posted = thread.history()
    assert "Game 1, hand 1" in posted[0].content
    assert posted[1].embeds[0].title.startswith("Umtali")
    assert any(c.endswith(":hand") for c in custom_ids(posted[1]))
    # Each player has their hand by DM.
    for member in (world.alice, world.bob):
        dms = member.user.dm_channel.history()
        assert len(dms) == 1 and dms[0].embeds[0].title.startswith("Your hand")


async def test_challenge_refusals(world: World) -> None:
    me = await world.alice.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert me.ephemeral and "yourself" in _text(me)
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    bot = await world.alice.slash(world.channel, "umtali challenge", opponent=robot)
    assert bot.ephemeral and "Bots" in _text(bot)
    await start_match(world)
    busy = await world.carol.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert busy.ephemeral and "already playing" in _text(busy)
    busy = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert busy.ephemeral and "already playing" in _text(busy)


async def test_challenge_declined_and_expired(world: World) -> None:
    result = await challenge(world, world.alice, world.bob)
    ids = custom_ids(result.response)
    declined = await world.bob.click(result.response, custom_id=ids[1])
    assert declined.acknowledged
    assert "declined" in (world.channel.history()[0].embeds[0].description or "")
    # A "no" stands a while (``Limits.pair_window``); then she may ask again.
    world.clock.advance(Limits().pair_window)
    again = await challenge(world, world.alice, world.bob)
    from cogs.umtali.challenge_expiry import expire_challenges

    await expire_challenges(world.bot, now=10**12)
    await world.env.settle()
    message = next(m for m in world.channel.history() if m.id == again.response.id)
    assert "expired" in (message.embeds[0].description or "")
    assert message.components == []
    late = await world.bob.click(again.response, custom_id=custom_ids(again.response)[0]) \
        if custom_ids(again.response) else None
    assert late is None or "no longer open" in _text(late)


def test_turns_that_piled_up_go_out_as_one_message() -> None:
    from cogs.umtali.announcing import merged

    texts = ["<@1>, your turn.\nada discards 5♥.", "<@2>, your turn.\nben draws.\nben discards 9♣."]
    # Only the last mention stays, first: the earlier turn is over.
    assert merged(texts) == ("<@2>, your turn.\nada discards 5♥.\nben draws.\nben discards 9♣.", 2)
    long = ["x" * 1990, "y" * 20]
    assert merged(long) == ("x" * 1990, 1)
    assert merged(["<@1>, your turn.\nonly one"]) == ("<@1>, your turn.\nonly one", 1)
