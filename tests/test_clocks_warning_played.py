"""The turn's warning against a move saved while it was on its way: the warning is claimed
under the match's lock and posted after it is let go, so the player's last move of the turn
may be saved while its post is in flight. Such a warning, posted after the turn was played,
told a player whose turn was over that their time was running out; it is deleted now. So
too, by correspondence, the DM telling a player their turn has started (SimCord, virtual
time)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.give_back import give_back
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, play, play_out, player, start_match, thread_of
from tests.test_faults_timers import to_turn_end
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


TOLD = "Your turn in the Umtali match"


def _told(world: World, seat: int) -> int:
    return sum(TOLD in m.content for m in player(world, seat).user.dm_channel.history())


def _moves_while_told(world: World, monkeypatch: pytest.MonkeyPatch, live: LiveMatch,
                      whole_turn: bool) -> list[int]:
    """By correspondence, the player whose turn starts plays while the DM telling them so is
    on its way (sent after the lock was let go): their whole turn, or one move within it. The
    seats that moved."""
    svc = world.bot.matches
    assert svc is not None
    http = world.bot.http
    send = http.send_message
    moved: list[int] = []

    async def play_meanwhile(channel_id: int, *, params: Any) -> Any:
        if TOLD in str(params.payload.get("content")) and not moved:
            seat = live.session.to_act
            moved.append(seat)
            while live.session.to_act == seat:
                move = GreedyPlayer().choose(live.session.view(seat))
                if not whole_turn and move.kind is MoveKind.DISCARD:
                    break
                assert (await svc.act(live, live.player_ids[seat], move, live.version)).ok
                if not whole_turn:
                    break
        return await send(channel_id, params=params)

    monkeypatch.setattr(http, "send_message", play_meanwhile)
    return moved


async def _end_turn(world: World, live: LiveMatch) -> None:
    await to_turn_end(world, live)
    await play_out(world, live, moves=1)


async def test_a_turns_dm_sent_as_the_turn_was_played_is_deleted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The DM telling a player their turn has started, on its way as they play that whole
    turn: it would tell them it is their turn when it is not, and is deleted. The next turn's
    DM, to the other player, stays."""
    live = await start_match(world, time_control="correspondence")
    first = live.session.to_act
    assert _told(world, first) == 1
    moved = _moves_while_told(world, monkeypatch, live, whole_turn=True)
    await _end_turn(world, live)
    await flush(world)
    assert moved == [1 - first] and live.session.to_act == first and not live.over
    assert _told(world, 1 - first) == 0
    # first's turn DM before, its turn played since, deleted (one stands: fix164).
    assert _told(world, first) == 1


async def test_a_turns_dm_sent_as_a_move_within_the_turn_is_made_stays(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw or a meld while the DM is on its way leaves the turn the player's: it stays."""
    live = await start_match(world, time_control="correspondence")
    first = live.session.to_act
    moved = _moves_while_told(world, monkeypatch, live, whole_turn=False)
    await _end_turn(world, live)
    await flush(world)
    assert moved == [1 - first] and live.session.to_act == 1 - first
    assert _told(world, 1 - first) == 1


async def test_a_turns_dm_sent_as_time_was_given_back_stays(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Time given to the turn while its DM is on its way (an outage's, given back) leaves the
    turn the player's: the DM stays, as a DM sent before it would (deleted, nothing would tell
    the player the turn is theirs)."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    first = live.session.to_act
    http = world.bot.http
    send = http.send_message
    given: list[float] = []

    async def give_back_meanwhile(channel_id: int, *, params: Any) -> Any:
        if TOLD in str(params.payload.get("content")) and not given:
            assert live.deadline is not None
            given.append(live.deadline)
            await give_back(svc, {live.id: (live.deadline, 600.0)}, "after an outage")
        return await send(channel_id, params=params)

    monkeypatch.setattr(http, "send_message", give_back_meanwhile)
    await _end_turn(world, live)
    await flush(world)
    assert given and live.deadline == given[0] + 600.0
    assert live.session.to_act == 1 - first and not live.over
    assert _told(world, 1 - first) == 1
