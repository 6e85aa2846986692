"""The resign confirmation stands for the hand it was asked in: a "Yes" resigns the session
whatever moves were made meanwhile (the computer's in practice, the opponent's), but not once
that hand ended: the position is then one the player was not asked about. Its Cancel says
something true once the match has ended."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    play,
    start_match,
    start_practice,
)
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

# The computer thinks in worker processes at the hard level only; these play at normal.
pytestmark = pytest.mark.simcord(settle_timeout=30)


def _content(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _button(message: Any, action: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(f":{action}"))


async def _ask(world: World) -> Any:
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.ephemeral and "Resign the session?" in _content(ask)
    return ask


async def _one_move(world: World, live: LiveMatch) -> None:
    await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
    await flush(world)


async def _to_players_turn_end(world: World, live: LiveMatch) -> None:
    """Play on until ada's (seat 0) next move ends her turn (a discard)."""
    while live.session.to_act != 0 or GreedyPlayer().choose(
            live.session.view(0)).kind is not MoveKind.DISCARD:
        await _one_move(world, live)


async def test_a_yes_asked_before_the_computer_played_resigns_the_session(world: World) -> None:
    live = await start_practice(world)
    assert live.computer_seat == 1
    await _to_players_turn_end(world, live)
    # ada asks, then ends her turn: the computer plays its turn (several moves) at once.
    ask = await _ask(world)
    asked = live.version
    await _one_move(world, live)
    assert live.version > asked + 1 and live.session.to_act == 0 and not live.over
    done = await world.alice.click(ask.response, custom_id=_button(ask.response, "resign"))
    assert "You resigned" in _content(done), _content(done)
    await flush(world)
    assert live.over and live.session.winner == 1 and live.session.how == "resigned"


async def test_a_yes_asked_before_the_opponent_moved_resigns_the_session(world: World) -> None:
    live = await start_match(world)
    while live.session.to_act != 1:
        await _one_move(world, live)
    ask = await _ask(world)
    await _one_move(world, live)  # ben's move, in the same hand
    done = await world.alice.click(ask.response, custom_id=_button(ask.response, "resign"))
    assert "You resigned" in _content(done), _content(done)
    await flush(world)
    assert live.over and live.session.winner == 1


async def test_a_yes_asked_before_the_hand_ended_has_expired(world: World) -> None:
    live = await start_match(world)
    ask = await _ask(world)
    hand = (live.session.game, live.session.hand_no)
    while (live.session.game, live.session.hand_no) == hand:
        await _one_move(world, live)
    version = live.version
    late = await world.alice.click(ask.response, custom_id=_button(ask.response, "resign"))
    assert late.ephemeral and "expired" in _content(late), _content(late)
    await flush(world)
    assert not live.over and live.version == version
    # Asked again, it holds for the hand in play.
    again = await _ask(world)
    done = await world.alice.click(again.response, custom_id=_button(again.response, "resign"))
    assert "You resigned" in _content(done)


async def test_cancel_after_the_match_ended_says_so(world: World) -> None:
    live = await start_match(world)
    first, second = await _ask(world), await _ask(world)
    await world.alice.click(first.response, custom_id=_button(first.response, "resign"))
    await flush(world)
    assert live.over
    cancelled = await world.alice.click(second.response,
                                        custom_id=_button(second.response, "keep"))
    assert cancelled.acknowledged
    assert "play on" not in _content(second), _content(second)
    assert "This match is over." in _content(second) and custom_ids(second.response) == []


async def test_cancel_while_the_match_goes_on_keeps_it(world: World) -> None:
    live = await start_match(world)
    ask = await _ask(world)
    cancelled = await world.alice.click(ask.response, custom_id=_button(ask.response, "keep"))
    assert cancelled.acknowledged
    assert "Cancelled: you play on." in _content(ask) and custom_ids(ask.response) == []
    await flush(world)
    assert not live.over
