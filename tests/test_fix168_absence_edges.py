"""fix168 (review144 on fix161): the day an opponent must be out of reach before a "Yes" to
resign ends a match with no clock with no result was counted from the first time the bot
found them gone, forgotten only when a ``/umtali resign`` found them back. Kicked a moment,
back and playing on, then kicked again a day later for a moment: "no result" at once. Now a
move of theirs proves them back (saved with the move: ``Store.record_move``), and so does
the bot finding them in reach at their refused DMs' notice. SimCord, a real SQLite file;
the store on both backends."""

from __future__ import annotations

from pathlib import Path

from cogs.umtali.out_of_reach import ASK_AGAIN
from cogs.umtali.resigning import NO_RESULT_AFTER
from data.store import Store
from tests.discord_helpers import World, flush, play, start_match
from tests.test_fix161_absence_grace import _ask, _kicked, _row, grace_left
from tests.test_refused_dms_departed import _notices, _refused_after_leaving
from umtali.players import GreedyPlayer


async def test_a_move_of_theirs_starts_a_later_absence_anew(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    await _ask(world)  # ben first found gone, saved
    world.guild.add_member(world.bob.user)  # back a moment later: nobody asks again
    await world.env.settle()
    # ben plays on (alice's moves first, if it is her turn).
    while True:
        seat = live.session.to_act
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
        await flush(world)
        if seat == 1:
            break
    world.clock.advance(NO_RESULT_AFTER + 3600)
    await _kicked(world)  # a moment's kick, a day after the first
    again = world.clock()
    ask = await _ask(world)
    assert ask.response.content == grace_left(again), ask.response.content
    assert not live.over and _row(db_path, live.id) == ("active", None, 0)


async def test_a_seat_s_move_forgets_its_absence_alone(stores: tuple[Store, Store]) -> None:
    store, other = stores
    match_id = await store.create_match(
        guild_id=10, channel_id=5, players=((1, "Ada"), (2, "Ben")), variant="english",
        turn_timer=0, state="{}", deadline=None, now=100.0, salt="s", commitment="c")
    assert await store.gone_since(match_id, 0, 100.0) == 100.0
    assert await other.gone_since(match_id, 1, 110.0) == 110.0
    await other.record_move(match_id=match_id, version=0, seat=1, move="D", state="{}",
                            deadline=None, now=120.0)
    # ben's move: his absence forgotten (counted anew from now), ada's kept.
    assert await store.gone_since(match_id, 1, 500.0) == 500.0
    assert await store.gone_since(match_id, 0, 500.0) == 100.0


async def test_found_back_at_their_refused_dms_notice_starts_a_later_absence_anew(
        world: World, db_path: Path) -> None:
    live = await _refused_after_leaving(world, turn_timer=0)
    await _ask(world)  # ben first found gone, saved
    world.bob = world.guild.add_member(world.bob.user)
    await world.env.settle()
    svc = world.bot.matches
    assert svc is not None
    world.clock.advance(ASK_AGAIN + 1)
    await svc.check_timers()  # asked again: in reach, told in the channel
    await flush(world)
    assert len(_notices(world, live)) == 1
    world.clock.advance(NO_RESULT_AFTER)
    await _kicked(world)  # a moment's kick, a day after the first, ben not having moved
    again = world.clock()
    ask = await _ask(world)
    assert ask.response.content == grace_left(again), ask.response.content
    assert not live.over and _row(db_path, live.id) == ("active", None, 0)
