"""A channel refusing the bot that is no longer the match's: a player brought the match to
another channel (``/umtali table``, which leaves the version as it was) since the copy that
posted there was read, or while its post was on its way. Nothing is marked lost (the match,
live in its new channel, would go to DMs, both players told the channel was lost); the copy is
brought up to date, and what it had to say is shown where the match is now (or by the process
that holds it now)."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.umtali.posting
import cogs.umtali.sending
from cogs.umtali.failures import GONE
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_match
from tests.processes.helpers import first_line, main_of, row, settle, via
from tests.processes.test_lost_told_elsewhere import notices
from tests.test_faults_channel import _lose_thread
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def test_a_copy_from_before_the_move_losing_the_old_channel_loses_nothing(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main, other)
    lost = live.channel_id
    # The player's click reaches the other process, which reads the match ...
    copy = await other.lookup(live.id)
    assert copy is not None and not copy.channel_lost and copy.channel_id == lost
    # ... as the holder finds the thread gone, and a player brings the match back to the
    # server's channel.
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost
    moved = await world.alice.slash(world.channel, "umtali table")
    assert not moved.ephemeral and moved.response is not None
    saved = await row(world, live.id)
    assert (saved["channel_id"], saved["channel_lost"]) == (world.channel.id, 0)
    since = len(world.env.http_requests)
    posts = len(world.channel.history())
    # The move saved through the copy (at the version the table's move left): its process
    # posts it to the thread it knew, which refuses the bot.
    seat = copy.session.to_act
    assert (await other.act(copy, copy.player_ids[seat],
                            GreedyPlayer().choose(copy.session.view(seat)))).ok
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert (saved["channel_id"], saved["channel_lost"], saved["dm0_lost_untold"],
            saved["dm1_lost_untold"]) == (world.channel.id, 0, 0, 0), "lost the moved match"
    assert [notices(world, s, since) for s in (0, 1)] == [0, 0], "told of a loss"
    assert not copy.channel_lost and copy.channel_id == world.channel.id
    assert copy.table_message_id == moved.response.id
    # The move is shown where the match is now: its turn's end announced there.
    turn_end = first_line(copy.last_turn)
    assert turn_end and any(turn_end in m.content
                            for m in world.channel.history()[posts:]), "never announced"


def _moved_while_refused(monkeypatch: pytest.MonkeyPatch, meanwhile: Any) -> list[Any]:
    """The delivery's table, sent to a channel that refuses it: ``meanwhile`` runs as the
    refusal is on its way back (once); what it returns is listed."""
    real = cogs.umtali.posting.post_table
    done: list[Any] = []

    async def in_flight(svc: MatchService, live: LiveMatch) -> None:
        try:
            await real(svc, live)
        except GONE:
            if not done:
                done.append(await meanwhile())
            raise

    monkeypatch.setattr(cogs.umtali.sending, "post_table", in_flight)
    return done


async def _unlost(world: World, live: LiveMatch, answer: Any) -> None:
    """The match is live in the server's channel, on the table ``answer`` posted."""
    assert not answer.ephemeral and answer.response is not None
    saved = await row(world, live.id)
    assert (saved["channel_id"], saved["table_message_id"], saved["channel_lost"],
            saved["dm0_lost_untold"], saved["dm1_lost_untold"]) == (
        world.channel.id, answer.response.id, 0, 0, 0), "lost the moved match"


async def test_the_holders_post_refused_as_another_process_moves_the_match_loses_nothing(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    since = len(world.env.http_requests)

    async def meanwhile() -> Any:
        # While the holder's edit is on its way, the other process finds the thread gone
        # too (saved), and a player brings the match to the server's channel through it.
        theirs = await other.lookup(live.id)
        assert theirs is not None
        await other.lose_channel(theirs)
        assert theirs.channel_lost
        with via(world, other):
            return await world.alice.slash(world.channel, "umtali table")

    moved = _moved_while_refused(monkeypatch, meanwhile)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main, other)
    [answer] = moved
    await _unlost(world, live, answer)
    assert [notices(world, s, since) for s in (0, 1)] == [0, 0], "told of a loss"
    # Held by the process that moved it: the holder's copy, behind, is let go.
    assert main.matches.get(live.id) is None
    assert other.matches[live.id].channel_id == world.channel.id


async def test_a_post_refused_as_this_process_moves_the_match_loses_nothing(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """One process: its table sent to the thread, a warning finds the thread gone meanwhile,
    and a player brings the match to the server's channel (the same copy, moved): the
    refusal of the table, coming back after, is of a channel the match has left."""
    live = await start_match(world)
    main = main_of(world)
    await flush(world)
    lost = live.channel_id

    async def meanwhile() -> Any:
        await main.lose_channel(live)
        assert live.channel_lost
        return await world.alice.slash(world.channel, "umtali table")

    moved = _moved_while_refused(monkeypatch, meanwhile)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    [answer] = moved
    await _unlost(world, live, answer)
    assert main.matches.get(live.id) is live
    assert (live.channel_id, live.channel_lost) == (world.channel.id, False)
    assert lost != world.channel.id


async def test_closed_dms_told_from_a_copy_from_before_the_move_are_told_where_it_is_now(
        world: World, other: MatchService) -> None:
    """The copy of the other process, read before the loss and the move, finds ben's DMs
    closed: the channel it knew refuses the notice, which is posted where the match is."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main, other)
    copy = await other.lookup(live.id)
    assert copy is not None and not copy.channel_lost
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    moved = await world.alice.slash(world.channel, "umtali table")
    await settle(world, main, other)
    await other.delivery.dm_refused(copy, 1)
    await settle(world, main, other)
    await _unlost(world, live, moved)
    assert copy.channel_id == world.channel.id and copy.dm_refused[1]
    assert any("I can't send you direct messages" in m.content
               and str(world.bob.user.id) in m.content for m in world.channel.history())
