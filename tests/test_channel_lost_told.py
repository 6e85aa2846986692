"""Both players are told, by a new DM, that the match's channel was lost, however the bot
stops between that loss's save and the notices: which seats are still to be told is saved
with the loss, and a seat's is cleared with its notice's panel."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import UmtaliBot
from cogs.umtali.in_dms import CHANNEL_LOST
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, flush, player, start_match, start_practice
from tests.slow_retries import slow_retries  # noqa: F401 (an autouse fixture)
from tests.test_faults_channel import _lose_thread
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.time_control_helpers import dm_ids


def told_lost(world: World, seat: int, before: list[int]) -> bool:
    """The seat got one new DM since ``before``, saying the channel was lost."""
    new = [m for m in player(world, seat).user.dm_channel.history() if m.id not in before]
    assert len(new) <= 1, "told twice"
    return bool(new) and any(CHANNEL_LOST in (e.description or "") for e in new[0].embeds)


async def _restarted(world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("failing", [(0, 1), (1,), (0,)])
async def test_a_seat_whose_lost_channel_notice_failed_as_the_bot_stopped_is_told_once_back(
        world: World, make_bot: Callable[[], UmtaliBot], failing: tuple[int, ...]) -> None:
    """The channel lost, the notices to ``failing`` seats failed for now (tried again a minute
    later), and the bot stopped before that: once it is back, each of them is told, once; a
    seat told before is not told again."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    before = {seat: dm_ids(world, seat) for seat in (0, 1)}
    for seat in failing:
        channel = player(world, seat).user.dm_channel.id
        world.env.inject_error("POST", f"/channels/{channel}/messages", status=500, times=1)
    _lose_thread(world, live)
    svc.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost
    for seat in (0, 1):
        assert told_lost(world, seat, before[seat]) is (seat not in failing)
    told = {seat: dm_ids(world, seat) for seat in (0, 1) if seat not in failing}
    await _restarted(world, make_bot)
    for seat in failing:
        assert told_lost(world, seat, before[seat]), f"seat {seat} never told"
    for seat, ids in told.items():
        assert dm_ids(world, seat) == ids, f"seat {seat} told again"
    # A second restart tells nobody again (the panels may be edited: no new message).
    now = {seat: dm_ids(world, seat) for seat in (0, 1)}
    await _restarted(world, make_bot)
    assert {seat: dm_ids(world, seat) for seat in (0, 1)} == now


async def test_a_match_abandoned_as_its_channel_is_lost_tells_nobody_to_play_on(
        world: World) -> None:
    """ben's DMs were closed from the start; the channel lost, nobody can tell him of his
    turns: the match is abandoned, and ada is told so, not to play on in her DMs (the notice
    is owed from the loss's save on, before the match is found unreachable)."""
    for method, path in (("POST", "messages"), ("PATCH", "messages/*")):
        world.env.inject_error(method, f"/channels/{world.bob.user.dm_channel.id}/{path}",
                               status=403, code=50007, times=None,
                               message="Cannot send messages to this user")
    live = await start_match(world)
    seat = live.seat_of(world.alice.user.id)
    assert seat is not None and live.dm_refused[1 - seat]
    before = dm_ids(world, seat)
    _lose_thread(world, live)
    svc = world.bot.matches
    assert svc is not None
    svc.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost and live.abandoned
    said = [e.description or "" for m in world.alice.user.dm_channel.history()
            if m.id not in before for e in m.embeds]
    said += [e.description or "" for e in world.alice.user.dm_channel.last_message.embeds]
    assert not any(CHANNEL_LOST in text for text in said), said
    assert any("abandoned" in text for text in said), said


@pytest.mark.usefixtures("server_errors")
async def test_a_practice_whose_notice_failed_owes_the_computer_nothing_after_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """A practice's lost channel, the player's notice failed for now, then a restart: the
    player is told, and nothing is owed to the computer's seat (a delivery to nobody at every
    restart)."""
    live = await start_practice(world)
    seat = live.seat_of(world.alice.user.id)
    assert seat is not None and live.is_computer(1 - seat)
    before = dm_ids(world, seat)
    channel = world.alice.user.dm_channel.id
    world.env.inject_error("POST", f"/channels/{channel}/messages", status=500, times=1)
    _lose_thread(world, live)
    svc = world.bot.matches
    assert svc is not None
    svc.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost and not told_lost(world, seat, before)
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    assert told_lost(world, seat, before)
    assert again.matches is not None
    row = await again.matches.store.match(live.id)
    assert row is not None and not row.lost_untold[seat]
    assert LiveMatch.from_row(row).lost_untold == set()  # as brought back from now on
