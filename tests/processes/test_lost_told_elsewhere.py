"""The channel's loss told to both players by one process, while another process holds a copy
read before that loss: that copy finding the channel gone too tells nobody again; and a seat
whose notice was still owed is told by the process that holds the match from then on."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.umtali.in_dms import CHANNEL_LOST
from cogs.umtali.live import LiveMatch, told_text
from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import turn_of
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, flush, player, start_match
from tests.processes.helpers import main_of, row, settle
from tests.slow_retries import (
    RETRY,
    slow_retries,  # noqa: F401 (an autouse fixture)
)
from tests.test_faults_channel import _lose_thread
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import to_turn_end
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


def _unknown_channel() -> discord.NotFound:
    """Discord's answer to a post into a deleted channel."""
    return discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                            {"code": 10003, "message": "Unknown Channel"})


def notices(world: World, seat: int, since: int) -> int:
    """The DMs sent to the seat since the ``since``-th call to Discord telling it that the
    channel was lost (a turn's new panel, which notifies too, is not one): counted as sent,
    whatever edits they had since (its next turn's edit of the panel takes the words off)."""
    channel = f"/channels/{player(world, seat).user.dm_channel.id}/messages"
    return sum(1 for r in world.env.http_requests[since:]
               if r.method == "POST" and r.path == channel and isinstance(r.json, dict)
               and any(CHANNEL_LOST in (e.get("description") or "")
                       for e in r.json.get("embeds") or ()))



async def test_a_copy_read_before_the_loss_told_elsewhere_tells_nobody_again(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    since = len(world.env.http_requests)
    # The player's click reaches the other process, which reads the match ...
    copy = await other.lookup(live.id)
    assert copy is not None and not copy.channel_lost
    # ... as the holder finds the channel gone, and tells both players so.
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert [notices(world, seat, since) for seat in (0, 1)] == [1, 1]
    notice = [player(world, s).user.dm_channel.last_message.id for s in (0, 1)]
    saved = await row(world, live.id)
    assert (saved["channel_lost"], saved["dm0_lost_untold"], saved["dm1_lost_untold"]) == \
        (1, 0, 0)
    # The move made through the copy is saved; that process finds the channel gone too.
    seat = copy.session.to_act
    assert (await other.act(copy, copy.player_ids[seat],
                            GreedyPlayer().choose(copy.session.view(seat)))).ok
    await settle(world, main, other)
    assert [notices(world, seat, since) for seat in (0, 1)] == [1, 1], "told twice"
    assert not copy.lost_untold
    # The turn passed: its player is told so by a new panel (it notifies), as the holder
    # tells a turn in DMs; one panel of each seat offers anything, the one saved.
    waiting = copy.session.to_act
    assert waiting != seat
    saved = await row(world, live.id)
    for s in (0, 1):
        offering = [m.id for m in player(world, s).user.dm_channel.history()
                    if any(c.startswith(f"umtali:m:{live.id}:") for c in custom_ids(m))]
        assert offering == [saved[f"dm{s}_message_id"]], (s, offering)
    told = player(world, waiting).user.dm_channel.last_message
    assert told.id == saved[f"dm{waiting}_message_id"] and told.id > notice[waiting]


@pytest.mark.usefixtures("server_errors")
async def test_a_seat_owed_its_notice_is_told_by_the_copy_that_takes_the_match_on(
        world: World, other: MatchService) -> None:
    """The notice to one seat failing for now, the other seat's turn is played through the
    other process, with a copy read before the turn began and the loss (reloaded, as its first
    move finds the match moved on): that process, holding the match from then on, tells the
    seat at the turn's end (the first holder's retry finds the match moved on, and drops it)."""
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    copy = await other.lookup(live.id)
    assert copy is not None
    # The turn's last move, through the holder: the copy is behind.
    failing = live.session.to_act
    assert (await main.act(live, live.player_ids[failing],
                           GreedyPlayer().choose(live.session.view(failing)))).ok
    await settle(world, main, other)
    playing = 1 - failing
    assert live.session.to_act == playing
    since = len(world.env.http_requests)
    channel = player(world, failing).user.dm_channel.id
    world.env.inject_error("POST", f"/channels/{channel}/messages", status=500, times=1)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    # The failing seat's notice refused (the 500 injected): still owed.
    assert notices(world, playing, since) == 1 and live.lost_untold == {failing}
    refused = len(world.env.http_requests)
    # The next turn is played through the other process, from its copy read before.
    assert copy.session.to_act == failing and not copy.channel_lost
    while True:
        fresh = await other.lookup(live.id)
        assert fresh is not None
        assert (await other.act(copy, copy.player_ids[playing],
                                GreedyPlayer().choose(fresh.session.view(playing)))).ok
        assert other.matches.get(live.id) is copy and copy.channel_lost
        if copy.session.to_act == failing:
            break
    await settle(world, main, other)
    world.clock.advance(RETRY + 1)
    await settle(world, main, other)
    assert notices(world, failing, refused) == 1, "never told"
    assert notices(world, playing, since) == 1, "told twice"
    saved = await row(world, live.id)
    assert (saved["dm0_lost_untold"], saved["dm1_lost_untold"]) == (0, 0)


async def test_notices_whose_save_was_refused_are_not_sent_again_by_the_next_holder(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder's notices go out as a move through the other process moves the match on
    (their saves refused: that process holds it now). Both players were told all the same:
    the other process, its copy read as they went out, tells nobody again at its next
    delivery."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    since = len(world.env.http_requests)
    copies: list[LiveMatch] = []
    save = main.store.set_dm_message

    async def moved_on_meanwhile(*args: Any, **kwargs: Any) -> bool:
        if kwargs.get("lost_told") and not copies:
            # The player to act draws through the other process, which holds the match on.
            copy = await other.lookup(live.id)
            assert copy is not None and copy.lost_untold == {0, 1}
            seat = copy.session.to_act
            move = GreedyPlayer().choose(copy.session.view(seat))
            assert move.kind is not MoveKind.DISCARD
            assert (await other.act(copy, copy.player_ids[seat], move)).ok
            copies.append(copy)
        return await save(*args, **kwargs)

    monkeypatch.setattr(main.store, "set_dm_message", moved_on_meanwhile)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main, other)
    assert [notices(world, s, since) for s in (0, 1)] == [1, 1]
    [copy] = copies
    assert other.matches.get(live.id) is copy and main.matches.get(live.id) is None
    # The turn played on through the other process, to its end: that delivery tells nobody
    # again (nor does one after a restart, all told as saved).
    seat, move = copy.session.to_act, None
    while move is None or move.kind is not MoveKind.DISCARD:
        move = GreedyPlayer().choose(copy.session.view(seat))
        assert (await other.act(copy, copy.player_ids[seat], move)).ok
    await settle(world, main, other)
    assert [notices(world, s, since) for s in (0, 1)] == [1, 1], "told twice"
    saved = await row(world, live.id)
    assert (saved["dm0_lost_untold"], saved["dm1_lost_untold"]) == (0, 0)


async def test_a_turn_told_elsewhere_as_the_copy_loses_the_channel_is_not_told_again(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy posting a turn's announcement (one it took on unsent) finds the channel gone,
    while the holder, finding it gone too, tells both players so, the player to act its turn
    with them (a new panel): that copy tells the turn not again, and edits that panel."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    copy = await other.lookup(live.id)
    assert copy is not None
    waiting = live.session.to_act
    dm = f"/channels/{player(world, waiting).user.dm_channel.id}/messages"
    _lose_thread(world, live)
    lose = other.store.set_channel_lost
    told: list[int] = []

    async def after_the_holders(*args: Any) -> Any:
        if not told:
            # The holder's notices go out between the copy's refusal and its own save.
            await main.delivery.lose_channel(live, _unknown_channel(),
                                             live.channel_id)
            told.append(len(world.env.http_requests))
        return await lose(*args)

    monkeypatch.setattr(other.store, "set_channel_lost", after_the_holders)
    other.delivery.enqueue(copy, Batch(announce=True, table=True))
    await settle(world, main, other)
    assert told and copy.channel_lost
    assert notices(world, waiting, 0) == 1
    saved = await row(world, live.id)
    assert saved[f"dm{waiting}_told"] == told_text(turn_of(live))
    posts = [r for r in world.env.http_requests[told[0]:]
             if r.method == "POST" and r.path == dm]
    assert not posts, "the turn told twice"
    offering = [m.id for m in player(world, waiting).user.dm_channel.history()
                if any(c.startswith(f"umtali:m:{live.id}:") for c in custom_ids(m))]
    assert offering == [saved[f"dm{waiting}_message_id"]]
