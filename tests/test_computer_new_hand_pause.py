"""The computer's turns come after a short pause (README), its first turn of a new hand too:
when its own move ends a hand (its last turn after the player went out) and it opens the next,
it pauses again rather than playing on at once."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.discord_helpers import World, flush, start_practice
from umtali.codec import session_to_json
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.turns import Phase

PAUSE = 0.3


def last_turn_then_first(rules: RuleSet, seat: int) -> Session:
    """A session at the start of ``seat``'s last turn (the other went out), where ``seat``
    also opens the next hand: found by playing greedy sessions from seed 1 up."""
    greedy = GreedyPlayer()
    for seed in range(1, 200):
        s = Session(rules, seed)
        while not s.over:
            if s.hand.out >= 0 and s.hand.phase is Phase.DRAW and s.to_act == seat:
                c, deal = s.copy(), (s.game, s.hand_no)
                while not c.over and (c.game, c.hand_no) == deal and c.to_act == seat:
                    c.apply(greedy.choose(c.view(seat)))
                if not c.over and (c.game, c.hand_no) != deal and c.to_act == seat:
                    return s
            s.apply(greedy.choose(s.view(s.to_act)))
    raise AssertionError("no such session")


async def test_the_computer_pauses_before_its_first_turn_of_a_new_hand(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_practice(world)
    svc = world.bot.matches
    assert svc is not None and live.computer_seat is not None
    seat = live.computer_seat
    live.session = last_turn_then_first(live.session.rules, seat)
    # Saved so, as a match that came there by play: its moves are checked by their count.
    async with svc.store.db.transaction() as c:
        await c.execute("UPDATE matches SET state = ?, version = ? WHERE id = ?",
                        (json.dumps(session_to_json(live.session)), live.version, live.id))
    deal = (live.session.game, live.session.hand_no)
    svc.computers.pause = PAUSE
    moves: list[tuple[float, tuple[int, int]]] = []
    played = svc.computer_move

    async def timed(match: Any, at: int, choose: Callable[..., Awaitable[Any]]) -> Any:
        outcome = await played(match, at, choose)
        moves.append((time.monotonic(), (match.session.game, match.session.hand_no)))
        return outcome

    monkeypatch.setattr(svc, "computer_move", timed)
    svc.computers.next(live)
    await svc.computer_idle()
    await flush(world)
    ended = next(i for i, (_, hand) in enumerate(moves) if hand != deal)
    assert ended + 1 < len(moves), "the computer opened the next hand"
    assert live.session.to_act != seat and (live.session.game, live.session.hand_no) != deal
    # Its last move of the old hand, then a pause, then its first of the new one.
    assert moves[ended + 1][0] - moves[ended][0] >= PAUSE * 0.9
