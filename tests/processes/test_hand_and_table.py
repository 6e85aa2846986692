"""The match's messages through the process that does not hold it: the hand redrawn after a
display choice, and the table posted again (docs/processes.md)."""

from __future__ import annotations

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import greedy_via, main_of, row, settle, via


async def test_a_display_choice_made_through_another_process_redraws_the_hand_at_once(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    seat = live.seat_of(world.alice.id)
    assert seat is not None
    dm = world.alice.user.dm_channel.last_message
    assert dm.attachments, "the hand is a picture"
    with via(world, other):
        answer = await world.alice.slash(world.channel, "umtali display", pictures=False)
        assert answer.ephemeral
        await settle(world, main_of(world), other)
    assert not world.alice.user.dm_channel.last_message.attachments


async def test_the_table_is_posted_again_through_another_process(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import custom_ids, thread_of

    live = await start_match(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    with via(world, other):
        # Someone else, in the match's thread: a snapshot, found in the database.
        peek = await world.carol.slash(thread, "umtali table")
        assert peek.ephemeral and "snapshot" in (peek.response.embeds[0].description or "")
        # A player: the live table moves, and the match is held where that was done.
        r = await world.alice.slash(thread, "umtali table")
        assert not r.ephemeral and r.response is not None
        await settle(world, main_of(world), other)
    assert (await row(world, live.id))["table_message_id"] == r.response.id != old
    assert (await row(world, live.id))["owner"] == "p2"
    [replaced] = [m for m in thread.history() if m.id == old]
    assert custom_ids(replaced) == [] and "moved" in (replaced.embeds[0].description or "")
    # The match goes on; the turn's end edits the new table.
    await greedy_via(world, other, live.id)
    await settle(world, main_of(world), other)
    assert other.matches[live.id].table_message_id == r.response.id
