"""fix119: the live table deleted within ``TABLE_AGAIN`` of its post (a moderator tidying, a
player) is posted again by ``/umtali table`` at once: the limit holds back only a table that is
still there. Once: the other player, who found it gone too, is held back by the new one.
Whether it is gone unknown (Discord failing): the limit holds, as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from cogs.umtali.tables import SEEN_FOR, TABLE_AGAIN
from data.store import Store
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_table_again_limit import _live_tables, _posted_again


def _moderator(world: World) -> Any:
    mods = world.guild.create_role("mods", permissions=discord.Permissions(
        manage_messages=True))
    return world.guild.add_member(world.env.create_user("mod"), roles=[mods])


async def test_a_table_deleted_within_the_minute_is_posted_again_at_once(
        world: World) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    world.clock.advance(TABLE_AGAIN / 2)
    await _moderator(world).delete(first)
    assert _live_tables(world, live.id, thread) == []
    again = await _posted_again(world, world.bob, thread)
    assert live.table_message_id == again.id != first.id
    assert _live_tables(world, live.id, thread) == [again.id]
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.table_message_id == again.id
    # The new post is held back in its turn: the table is there.
    refused = await world.alice.slash(thread, "umtali table")
    assert refused.ephemeral, refused.response
    assert f"/{thread.id}/{again.id}" in str(refused.response.content)
    assert _live_tables(world, live.id, thread) == [again.id]


async def test_found_gone_by_both_the_one_held_back_is_told_it_is_on_its_way(
        world: World) -> None:
    """The other player found it gone a moment before and their post was noted first: the
    one held back is not sent to the deleted table, nor told to wait from the old post."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    world.clock.advance(TABLE_AGAIN / 2)
    await _moderator(world).delete(first)
    # Alice's second /umtali table, noted first (its post still on its way).
    wait, last = await svc.store.note_table_posted(live.id, thread.id, svc.clock(),
                                                   TABLE_AGAIN)
    assert wait > 0
    assert await svc.store.note_table_gone(live.id, thread.id, first.id, last, svc.clock())
    told = await world.bob.slash(thread, "umtali table")
    assert told.ephemeral, told.response
    said = str(told.response.content)
    assert said == ("The live table was deleted, and is being posted again right now: if it "
                    "does not appear in a moment, ask again."), said
    assert str(first.id) not in said
    await flush(world)
    assert _live_tables(world, live.id, thread) == []  # (Alice's post brings it)


async def test_deleted_past_the_limit_two_players_post_one_table(world: World) -> None:
    """review114: the table deleted when no post held it back, both players ask: the first is
    noted (its post on its way); the second, held back by that note, finds the table gone,
    but it is being replaced already: told so, not a second table."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    old = live.table_message_id
    assert old is not None
    await _moderator(world).delete(next(m for m in thread.history() if m.id == old))
    # Alice's /umtali table, noted (its post on its way).
    assert (await svc.store.note_table_posted(live.id, thread.id, svc.clock(),
                                              TABLE_AGAIN))[0] == 0
    told = await world.bob.slash(thread, "umtali table")
    assert told.ephemeral, told.response
    assert "is being posted again right now" in str(told.response.content)
    await flush(world)
    assert _live_tables(world, live.id, thread) == []  # (Alice's post brings it)


async def test_whether_it_is_gone_unknown_the_limit_holds(world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    world.env.inject_error("GET", f"/channels/{thread.id}/messages/{first.id}", status=403,
                           code=50001, message="Missing Access", times=1)
    refused = await world.bob.slash(thread, "umtali table")
    assert refused.ephemeral, refused.response
    assert "posted again a moment ago" in str(refused.response.content)
    await flush(world)
    assert live.table_message_id == first.id
    assert _live_tables(world, live.id, thread) == [first.id]


async def test_two_players_finding_it_gone_post_one_table(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        channel, table = 5, 77
        match_id = await store.create_match(
            guild_id=10, channel_id=channel, players=((1, "Ada"), (2, "Ben")),
            variant="english", turn_timer=30, state="{}", deadline=400.0, now=100.0, salt="s",
            commitment="c")
        assert await store.note_table_posted(match_id, channel, 1000.0, TABLE_AGAIN) == (
            0.0, 1000.0)
        await store.set_table_message(match_id, table)  # (that post saved as the table)
        # Both held back by that post, both find its table gone: only the first posts.
        wait, last = await store.note_table_posted(match_id, channel, 1010.0, TABLE_AGAIN)
        assert (wait, last) == (TABLE_AGAIN - 10, 1000.0)
        assert await store.note_table_gone(match_id, channel, table, last, 1011.0)
        assert not await store.note_table_gone(match_id, channel, table, last, 1012.0)
        # Nor does a table that is not the live one (another moved it since) let one through.
        assert not await store.note_table_gone(match_id, channel, table + 1, 1011.0, 1013.0)
        # The second finder, asking after the first's post was noted, is held back by that
        # note, the deleted table still the match's (the first's post on its way).
        wait, last = await store.note_table_posted(match_id, channel, 1014.0, TABLE_AGAIN)
        assert (wait, last) == (TABLE_AGAIN - 3, 1011.0)
        assert not await store.note_table_gone(match_id, channel, table, last, 1014.0)
        # Once the new table is saved and deleted in its turn, it may be posted again.
        await store.set_table_message(match_id, table + 2)
        assert await store.note_table_gone(match_id, channel, table + 2, last, 1015.0)
    finally:
        await store.close()


async def test_a_player_asking_again_and_again_makes_one_request(world: World) -> None:
    """Each refusal within the limit looked whether the table was still there: a player asking
    again and again made the bot ask Discord as often. Found there, it is taken to be there
    for ``SEEN_FOR`` seconds; deleted, it is found so once they have passed."""
    live = await start_match(world)
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    looked = f"/channels/{thread.id}/messages/{first.id}"

    def looks() -> int:
        return sum(r.method == "GET" and r.path == looked for r in world.env.http_requests)

    for actor in (world.alice, world.bob, world.alice, world.bob):
        refused = await actor.slash(thread, "umtali table")
        assert refused.ephemeral, refused.response
        world.clock.advance(1)
    assert looks() == 1
    await _moderator(world).delete(first)
    world.clock.advance(SEEN_FOR)
    again = await _posted_again(world, world.bob, thread)
    assert looks() == 2 and live.table_message_id == again.id != first.id
