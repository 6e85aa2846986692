"""``/umtali table`` in the match's own channel posts the live table again, each time a new
public message: no more than once in ``TABLE_AGAIN`` seconds per match, whichever player asks.
The refusal is private, links the live table and leaves everything as it was. Bringing a match
whose channel was lost to a channel is never held back by it."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import assert_error

from cogs.umtali.tables import TABLE_AGAIN
from tests.discord_helpers import World, custom_ids, flush, play, start_match, thread_of
from tests.test_faults_channel import _lose_thread
from umtali.players import GreedyPlayer


def _live_tables(world: World, match_id: int, channel: Any) -> list[int]:
    button = f"umtali:m:{match_id}:hand"
    return [m.id for m in channel.history() if button in custom_ids(m)]


async def _posted_again(world: World, actor: Any, channel: Any) -> Any:
    r = await actor.slash(channel, "umtali table")
    assert not r.ephemeral and r.response is not None, r.response
    await flush(world)
    return r.response


async def test_the_table_is_posted_again_once_a_minute_per_match(world: World) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    first = await _posted_again(world, world.alice, thread)
    assert live.table_message_id == first.id
    world.clock.advance(TABLE_AGAIN - 1)
    # Again within the minute, by either player: refused privately, with a link to it.
    for actor in (world.alice, world.bob):
        before = len(list(thread.history()))
        refused = await actor.slash(thread, "umtali table")
        assert refused.ephemeral, refused.response
        said = str(refused.response.content)
        assert "posted again a moment ago" in said and "in 1 second." in said, said
        # A masked link: a screen reader says its words, not the link's digits.
        assert f"[the live table](https://discord.com/channels/{world.guild.id}/{thread.id}/" \
            f"{first.id})" in said, said
        assert len(list(thread.history())) == before, "a table was posted all the same"
    await flush(world)
    assert live.table_message_id == first.id
    assert _live_tables(world, live.id, thread) == [first.id]
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.table_message_id == first.id
    # A minute after the last post it goes again, and so is held back again.
    world.clock.advance(1)
    second = await _posted_again(world, world.bob, thread)
    assert live.table_message_id == second.id != first.id
    assert _live_tables(world, live.id, thread) == [second.id]
    assert (await world.alice.slash(thread, "umtali table")).ephemeral


async def test_the_refusal_speaks_russian(world: World, locales: dict[int, str]) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    await _posted_again(world, world.alice, thread)
    locales[world.bob.id] = "ru"
    refused = await world.bob.slash(thread, "umtali table")
    assert refused.ephemeral
    said = str(refused.response.content)
    assert said.startswith("Стол только что выложили заново") and "через 60 с" in said, said


async def test_a_table_brought_back_from_a_lost_channel_is_never_held_back(
        world: World) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    await _posted_again(world, world.alice, thread)
    _lose_thread(world, live)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost
    # Within the minute: brought to the channel the players are in, twice over.
    moved = await world.alice.slash(world.channel, "umtali table")
    assert not moved.ephemeral and live.channel_id == world.channel.id
    assert live.table_message_id == moved.response.id and not live.channel_lost


async def test_a_post_that_failed_holds_nothing_back(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    # Discord refuses the post: nothing shown, and the player may ask again at once.
    world.env.inject_error("POST", "/interactions/*/callback", status=400, code=50035,
                           message="Invalid Form Body", times=1)
    await world.alice.slash(thread, "umtali table")
    await flush(world)
    assert_error(world.env, contains="Invalid Form Body")
    for record in caplog.records:
        if "unhandled" in record.getMessage():
            record.expected = True  # the post refused, as meant
    assert live.table_message_id == old
    assert _live_tables(world, live.id, thread) == [old]
    posted = await _posted_again(world, world.alice, thread)
    assert live.table_message_id == posted.id != old


async def test_a_table_that_could_not_be_drawn_holds_nothing_back(
        world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """review112: the table's drawing failing (before anything is posted) takes the note back
    too: the player may ask again at once."""
    from cogs.umtali.showing import Shown

    live = await start_match(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    real = Shown.drawn

    async def broken(self: Shown) -> Shown:
        raise OSError("the picture could not be drawn")

    monkeypatch.setattr(Shown, "drawn", broken)
    await world.alice.slash(thread, "umtali table")
    await flush(world)
    monkeypatch.setattr(Shown, "drawn", real)
    assert_error(world.env, contains="the picture could not be drawn")
    for record in caplog.records:
        if record.levelname == "ERROR":
            record.expected = True  # the drawing failing, as meant
    assert live.table_message_id == old
    posted = await _posted_again(world, world.alice, thread)
    assert live.table_message_id == posted.id != old


@pytest.mark.parametrize("back", [86_400.0, TABLE_AGAIN + 1])
async def test_a_clock_set_back_holds_nothing_back_for_the_gap(
        store_target: Any, back: float) -> None:
    """review112: a note ahead of the asking clock (set back since, or another process's
    ahead) would refuse for the whole gap while saying a minute: it holds nothing back."""
    from data.store import Store

    store = await Store.open(store_target)
    try:
        channel = 5
        match_id = await store.create_match(
            guild_id=10, channel_id=channel, players=((1, "Ada"), (2, "Ben")),
            variant="english", turn_timer=30, state="{}", deadline=400.0, now=100.0, salt="s",
            commitment="c")
        assert await store.note_table_posted(match_id, channel, 100_000.0, TABLE_AGAIN) == (
            0.0, 100_000.0)
        then = 100_000.0 - back
        assert await store.note_table_posted(match_id, channel, then, TABLE_AGAIN) == (
            0.0, then)
        # Noted at the clock of now: held back by it as ever.
        wait, last = await store.note_table_posted(match_id, channel, then + 1, TABLE_AGAIN)
        assert (wait, last) == (TABLE_AGAIN - 1, then)
    finally:
        await store.close()
