"""A process showing a match another process holds (a fresh copy's delivery, after one of
its own was overtaken) takes the match back through an action of its own, with a copy of its
own, as that delivery goes on: the action's batch, queued for the match, was taken up by the
older copy's worker and sent from that copy. Its announcements were not the copy's to post
(its unsent list was from before the move), and the hand-over to the held copy carried only
the table and the hands: the turn's announcement waited for the next move (the two-process
soak's seed 2024 on PostgreSQL: five minutes, until the turn's clock ran out)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.overtaken import overtaken
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match, thread_of
from tests.processes.helpers import main_of, row, settle
from umtali.players import GreedyPlayer


async def a_turn(svc: MatchService, match_id: int) -> LiveMatch:
    """The player to act plays a whole turn through ``svc`` (on the copy it looks up): the
    copy it was played on."""
    copy = await svc.lookup(match_id)
    assert copy is not None
    seat = copy.session.to_act
    while not copy.over and copy.session.to_act == seat:
        move = GreedyPlayer().choose(copy.session.view(seat))
        assert (await svc.act(copy, copy.player_ids[seat], move)).ok
    return copy


async def test_a_turn_played_here_as_an_older_copy_is_shown_is_announced(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    await a_turn(other, live.id)  # the other process holds the match now
    await settle(world, main, other)
    assert await main.owners.fell_behind(live)  # dropped here
    shown = await main.lookup(live.id)
    assert shown is not None and main.matches.get(live.id) is not shown
    # Shown here as saved (as after an overtaken delivery); as its check after sending
    # finds nothing newer, the player to act plays a turn through this process.
    played: list[LiveMatch] = []

    async def then_a_turn(*args: Any) -> None:
        await overtaken(*args)
        if not played:
            played.append(await asyncio.create_task(a_turn(main, live.id)))

    monkeypatch.setattr("cogs.umtali.delivery.overtaken", then_a_turn)
    main.delivery.enqueue(shown, Batch(table=True, hands={0, 1}))
    await settle(world, main, other)
    [held] = played
    assert main.matches.get(live.id) is held
    saved = await row(world, live.id)
    assert saved["unsent"] == "[]", "the turn's announcement is not posted"
    last = thread_of(world, held).history()[-1].content
    assert "discards" in last, last


async def test_a_match_shown_here_as_saved_leaves_nothing_kept_for_it_here(
        world: World, other: MatchService) -> None:
    """A process not holding a match that showed it as saved (a fresh copy's delivery, after
    one of its own was overtaken) kept that worker's entries for good: some for every match
    so shown, never freed in a process running for months."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    await a_turn(other, live.id)
    await settle(world, main, other)
    assert await main.owners.fell_behind(live)
    shown = await main.lookup(live.id)
    assert shown is not None
    main.delivery.enqueue(shown, Batch(table=True, hands={0, 1}))
    await settle(world, main, other)
    assert not main.tracked(live.id)
    assert other.tracked(live.id)  # its holder's
