"""A resignation confirmed while the computer plays a long turn (a draw, melds, a discard: five
moves or more, each saved on its own, each thinking a while at the hard level, two minutes
with a hung worker). The player's wish holds while the hand they were asked in is still
played (``resigning.confirm_resign``): each of the computer's moves landing while the "Yes"
waits for the match (saved under its lock; it thinks without) is no reason to give up on
it. It used to spend one of its five tries on each, and told the player the confirmation had
expired, in the same hand."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, custom_ids, cut, flush
from umtali.ai import LEVELS
from umtali.ai.resume import resumed
from umtali.moves import Move
from umtali.players import GreedyPlayer
from umtali.session import Session

pytestmark = pytest.mark.simcord(settle_timeout=30)

#: Moves of the computer's turn at least, the hand going on after it.
LONG = 6


def _next(session: Session, level: str) -> Move:
    """The next move: ada's greedy one, or the computer's own (as it plays, resumed)."""
    seat = session.to_act
    view = session.view(seat)
    if seat == 1:
        return resumed(LEVELS[level], session, 1).choose(view)
    return GreedyPlayer().choose(view)


def _long_turn(session: Session, level: str, ending: bool = False) -> tuple[int, int] | None:
    """The version at which a computer's turn of ``LONG`` moves or more begins in the first
    hand, the hand going on after it (``ending``: a turn of two moves or more that ends the
    hand), and its moves; None if there is none."""
    session = session.copy()
    start = None
    while not session.hand_log and not session.over:
        seat = session.to_act
        if seat == 1 and start is None:
            start = len(session.moves)
        session.apply(_next(session, level), seat)
        if seat == 1 and (session.to_act != 1 or session.hand_log):
            assert start is not None
            made = len(session.moves) - start
            if ending and session.hand_log and made >= 2:
                return start, made
            if not ending and not session.hand_log and made >= LONG:
                return start, made
            start = None
    return None


async def _practice_with_a_long_turn(world: World,
                                     ending: bool = False) -> tuple[LiveMatch, int, int]:
    svc = world.bot.matches
    assert svc is not None
    for _ in range(60):
        world.clock.advance(3600)
        r = await world.alice.slash(world.channel, "umtali practice", level="easy")
        assert r.acknowledged
        await cut(world, r)
        [live] = [m for m in svc.matches.values() if not m.over]
        assert live.computer_seat == 1 and live.computer_level == "easy"
        found = _long_turn(live.session, "easy", ending)
        if found is not None:
            return live, *found
        await svc.resign(live, 0)
        await flush(world)
    raise AssertionError("no practice with a long computer turn")


def _button(message: Any, action: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(f":{action}"))


@pytest.mark.parametrize("ending", [False, True], ids=["the hand going on", "ending the hand"])
async def test_a_yes_waiting_through_a_long_computer_turn_resigns_while_the_hand_goes_on(
        world: World, monkeypatch: pytest.MonkeyPatch, ending: bool) -> None:
    live, at, made = await _practice_with_a_long_turn(world, ending)
    svc = world.bot.matches
    assert svc is not None
    computers = svc.computers
    # The computer plays when the test says so, from the start of its long turn.
    real_next = type(computers).next
    monkeypatch.setattr(computers, "next", lambda live: None)
    while live.version < at:
        # The moves up to that turn (the way they are made is not what is looked at here).
        if live.session.to_act == 1:
            outcome = await svc.computer_move(live, 1, computers._choose)
        else:
            outcome = await svc.act(live, world.alice.id, _next(live.session, "easy"),
                                    live.version)
        assert outcome is not None and outcome.ok
        await flush(world)
    assert live.version == at and live.session.to_act == 1

    # ada asks at the start of the computer's turn.
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.ephemeral

    # The computer's first move (the one ending the hand, ``ending``) is being saved, under
    # the match's lock, until ada's "Yes" waits for the match. (It thinks without the lock
    # since fix150: only its saves are waited for.)
    saving = asyncio.Event()
    real_record = svc.store.record_move
    held = at + made - 1 if ending else at

    async def record_move(**saved: Any) -> Any:
        if saved["match_id"] == live.id and saved["version"] == held and not saving.is_set():
            saving.set()
            while not live.lock._waiters:
                await asyncio.sleep(0.01)
        return await real_record(**saved)

    monkeypatch.setattr(svc.store, "record_move", record_move)
    real_next(computers, live)
    await saving.wait()
    done = await world.alice.click(ask.response, custom_id=_button(ask.response, "resign"))
    content = str(done.response.content or "") if done.response is not None else ""
    content += "".join(str(m.content) for m in done.followups)
    await flush(world)
    moved = live.version - at
    assert moved >= 1, moved
    if ending:
        # The computer's turn ended the hand she was asked in: a position she was not asked
        # about, and the confirmation has expired.
        assert live.session.hand_log and not live.over
        assert "has expired" in content, (moved, content)
        return
    # Still the hand she was asked in: her wish holds.
    assert not live.session.hand_log
    assert "You resigned" in content, (moved, content)
    assert live.over and live.session.how == "resigned" and live.session.winner == 1
