"""The turn's warning against a move saved while it was on its way: the warning is claimed
under the match's lock and posted after it is let go, so the player's last move of the turn
may be saved while its post is in flight. Such a warning, posted after the turn was played,
told a player whose turn was over that their time was running out; it is deleted now
(SimCord, virtual time)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, play, player, start_match, thread_of
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer

WARNED = "seconds left for your turn"
REMINDED = "Reminder: your turn"


async def _up_to_the_discard(world: World, live: LiveMatch, seat: int) -> Move:
    """The turn played up to its last move: the discard, which ends it (returned, unplayed)."""
    while (move := GreedyPlayer().choose(live.session.view(seat))).kind is not MoveKind.DISCARD:
        await play(world, live, move)
        await flush(world)
    return move


def _discard_while_sent(world: World, monkeypatch: pytest.MonkeyPatch, live: LiveMatch,
                        move: Move, words: str) -> list[int]:
    """The player discards just as a message holding ``words`` is sent (the lock let go, the
    message on its way); the versions it was played at."""
    http = world.bot.http
    send = http.send_message
    moved: list[int] = []

    async def discard_meanwhile(channel_id: int, *, params: Any) -> Any:
        if words in str(params.payload.get("content")) and not moved:
            moved.append(live.version)
            await play(world, live, move)
        return await send(channel_id, params=params)

    monkeypatch.setattr(http, "send_message", discard_meanwhile)
    return moved


async def test_a_warning_posted_as_the_turn_was_played_is_deleted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    move = await _up_to_the_discard(world, live, seat)
    assert live.session.to_act == seat
    deadline = live.deadline
    moved = _discard_while_sent(world, monkeypatch, live, move, WARNED)
    world.clock.now = deadline - 30
    await svc.check_timers(now=deadline - 30)
    await flush(world)
    assert moved and live.session.to_act != seat and live.deadline == world.clock.now + 120
    assert not any(WARNED in m.content for m in thread_of(world, live).history())
    assert not live.over


async def test_a_reminder_sent_as_the_turn_was_played_is_deleted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """By correspondence, the reminder (a DM) telling the player when their turn ends, sent
    as they end it: deleted too."""
    live = await start_match(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat = live.session.to_act
    move = await _up_to_the_discard(world, live, seat)
    deadline = live.deadline
    moved = _discard_while_sent(world, monkeypatch, live, move, REMINDED)
    world.clock.now = deadline - 3600
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert moved and live.session.to_act != seat and live.deadline != deadline
    dm = player(world, seat).user.dm_channel
    assert not any(REMINDED in m.content for m in dm.history())
    assert not live.over
