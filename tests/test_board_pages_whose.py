"""review153: a board posted in the channel was turned by anyone, two readers flipping one
message back and forth under each other. Now its pages turn for the member who asked for it;
another member's click gets that page for themselves, in their language, the channel's board
left as it was. SimCord, a real SQLite file."""

from __future__ import annotations

from tests.discord_helpers import World, custom_ids
from tests.test_records import forfeited
from tests.test_records_discord import text_of


async def test_a_public_board_turns_for_its_asker_and_answers_others_privately(
        world: World, locales: dict[int, str]) -> None:
    assert world.bot.matches is not None
    store = world.bot.matches.store
    for i in range(12):  # 24 on the board: three pages
        await forfeited(store, (1000 + i, f"Gone {i}"), (2000 + i, f"Left {i}"),
                        guild=world.guild.id, now=1000.0 + i)
    locales[world.bob.id] = "ru"
    public = await world.alice.slash(world.channel, "umtali leaderboard")
    assert not public.ephemeral and "Page 1 of 3" in text_of(public)
    following = custom_ids(public.response)[1]
    # Another member's click: the page for them alone, in their words.
    theirs = await world.bob.click(public.response, custom_id=following)
    assert theirs.ephemeral and "Страница 2 из 3" in text_of(theirs), text_of(theirs)
    [shown] = [m for m in world.channel.history() if m.id == public.response.id]
    assert "Page 1 of 3" in str(shown.embeds[0].footer.text), "the channel's board turned"
    # Their own board turns for them, page after page.
    onward = custom_ids(theirs.response)[1]
    again = await world.bob.click(theirs.response, custom_id=onward)
    assert "Страница 3 из 3" in text_of(again), text_of(again)
    # The asker turns the channel's board.
    turned = await world.alice.click(public.response, custom_id=following)
    assert not turned.ephemeral and "Page 2 of 3" in text_of(turned)
