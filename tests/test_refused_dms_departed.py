"""A member who LEFT the server, their DMs closed to the bot too (a user who shares no server
with the bot any more: Discord refuses its DMs), was told in the match's channel to use the
table's My hand button (review121): a ping in a channel they can no longer see, with an
instruction they cannot follow. Now nothing is posted for them; the match goes as for any
player gone (a clock runs out on them; with no clock, the opponent's ``/umtali resign`` ends
it with no result: review43). One still on the server is told as before; one whose standing
cannot be read (Discord failing) too: told rather than never. SimCord, a real SQLite file."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, custom_ids, flush, play_out, start_match, thread_of
from tests.test_review43_opponent_left import gone_a_day

REFUSED = "can't send you direct messages"


def _close_dms(world: World) -> None:
    dm = world.bob.user.dm_channel
    for method, path in (("POST", f"/channels/{dm.id}/messages"),
                         ("PATCH", f"/channels/{dm.id}/messages/*")):
        world.env.inject_error(method, path, status=403, code=50007,
                               message="Cannot send messages to this user", times=None)


def _notices(world: World, live: LiveMatch) -> list[str]:
    return [m.content for m in thread_of(world, live).history() if REFUSED in m.content]


async def _until_refused(world: World, live: LiveMatch, seat: int) -> None:
    """Alice's moves until Bob's panel is brought up to date, which his DMs refuse (his turn
    to come: an opponent's draw alone leaves it as it was)."""
    for _ in range(4):
        if live.dm_refused[seat] or live.session.to_act == seat:
            break
        await play_out(world, live, moves=1)
    await flush(world)


async def _refused_after_leaving(world: World, turn_timer: int) -> LiveMatch:
    live = await start_match(world, turn_timer=turn_timer)
    bob = live.seat_of(world.bob.id)
    assert bob is not None and not live.dm_refused[bob]
    world.guild.remove_member(world.bob)
    await world.env.settle()
    _close_dms(world)
    await _until_refused(world, live, bob)
    assert live.dm_refused[bob] and not live.over
    return live


async def test_a_departed_member_is_not_told_in_the_channel_to_use_my_hand(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await _refused_after_leaving(world, turn_timer=0)
    assert _notices(world, live) == []
    assert any("have left the server" in r.getMessage() and "not told" in r.getMessage()
               for r in caplog.records if r.name == "cogs.umtali.channel_loss")
    # No clock: Alice's way out is the one for an opponent gone, which ends it with no result
    # (a day after they were first found gone).
    await gone_a_day(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.response.content == (
        "ben has left the server, and this match has no clock: Yes ends it with no result "
        "(nobody wins it, no rating changes).")
    done = await world.alice.click(ask.response, custom_id=next(
        c for c in custom_ids(ask.response) if c.endswith(":resign")))
    assert done.acknowledged
    await flush(world)
    assert live.over and live.session.winner < 0 and _notices(world, live) == []


async def test_a_departed_member_of_a_timed_match_is_left_to_its_clock(world: World) -> None:
    live = await _refused_after_leaving(world, turn_timer=5)
    assert _notices(world, live) == []
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    moved = live.version
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.version > moved or live.over
    assert _notices(world, live) == []


async def test_a_member_still_here_is_told_as_before(world: World) -> None:
    live = await start_match(world, turn_timer=0)
    _close_dms(world)
    await _until_refused(world, live, live.seat_of(world.bob.id) or 0)
    assert _notices(world, live) == [
        f"<@{world.bob.id}>, I can't send you direct messages: use the **My hand** button on "
        "the table to see your cards and play."]


async def test_a_standing_that_cannot_be_read_is_told(world: World) -> None:
    """Discord failing to say whether Bob is still a member: told, twice rather than never."""
    live = await start_match(world, turn_timer=0)
    world.env.inject_error("GET", f"/guilds/{world.guild.id}/members/{world.bob.id}",
                           status=500, code=0, message="Internal Server Error", times=None)
    _close_dms(world)
    await _until_refused(world, live, live.seat_of(world.bob.id) or 0)
    assert len(_notices(world, live)) == 1
