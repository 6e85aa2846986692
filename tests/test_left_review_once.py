"""A practice hand's review is sent once: not again after a restart, nor by another process
taking the match over, between the review and the player's next action (the mark is saved,
migration 15); and never lost: a review not yet sent when the bot stops is sent after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.coach import Coach, coach_of
from cogs.umtali.live import LiveMatch
from data.store import Store
from tests.discord_helpers import World, cut, flush, play
from tests.test_migrations import old_database
from umtali.ai.resume import seat_history
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)


def _reviews(world: World) -> list[str]:
    return [m.content for m in world.alice.user.dm_channel.history() if "Review of" in m.content]


async def _first_hand_reviewed(world: World) -> LiveMatch:
    """A practice session played until its first hand ended and was reviewed."""
    svc = world.bot.matches
    assert svc is not None
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged
    await cut(world, r)
    [live] = svc.matches.values()
    coach = coach_of(world.bot)
    while not live.session.hand_log:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await coach.idle()
    await world.env.settle()
    assert coach.sent == 1 and len(_reviews(world)) == 1
    return live


async def test_a_review_is_not_sent_again_after_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await _first_hand_reviewed(world)
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    await flush(world)
    # Whoever acts first in the next hand: the hands are sent anew.
    await new.matches.delivery.send_hand(restored, 0)
    for listener in new.matches.hand_listeners:
        await listener(restored)
    await coach_of(new).idle()
    await world.env.settle()
    assert coach_of(new).sent == 0
    assert len(_reviews(world)) == 1


async def test_a_review_is_not_sent_again_by_a_process_taking_the_match_over(
        world: World) -> None:
    live = await _first_hand_reviewed(world)
    svc = world.bot.matches
    assert svc is not None
    other = Coach(world.bot)  # the other process's coach, which never saw the match
    row = await svc.store.match(live.id)
    assert row is not None
    await other.hands_sent(LiveMatch.from_row(row))
    await other.idle()
    await world.env.settle()
    assert other.sent == 0 and len(_reviews(world)) == 1


async def test_a_review_not_sent_before_a_stop_is_sent_after_it(
        world: World, make_bot: Callable[[], UmtaliBot], monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    coach = coach_of(world.bot)

    async def stopped(*args: object) -> None:
        return None  # the bot stopped before the review went out

    monkeypatch.setattr(coach, "_send", stopped)
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged
    await cut(world, r)
    [live] = svc.matches.values()
    while not live.session.hand_log:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await coach.idle()
    assert not _reviews(world)
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    await flush(world)
    # The computer began the next hand before the stop: the player's turn is the first here.
    assert restored.session.to_act == 0 and list(seat_history(restored.session, 1))
    while True:  # the turn, to its discard (the draw alone sends no hand anew)
        move = GreedyPlayer().choose(restored.session.view(0))
        await play(world, restored, move)
        await flush(world)
        if move.kind is MoveKind.DISCARD:
            break
    await coach_of(new).idle()
    await world.env.settle()
    assert coach_of(new).sent == 1 and len(_reviews(world)) == 1
    assert "Review of hand 1" in _reviews(world)[0]
    row = await new.matches.store.match(live.id)
    assert row is not None and row.reviewed == 1


async def test_practice_matches_from_before_the_mark_are_marked_not_known(
        empty_target: str | Path) -> None:
    await old_database(empty_target, 14)
    store = await Store.open(empty_target)
    try:
        rated, practice = await store.match(1), await store.match(3)
        assert rated is not None and practice is not None
        assert (rated.reviewed, practice.reviewed) == (0, -1)
    finally:
        await store.close()
