"""A process that stops (killed, or restarted): its matches taken over by another within a
lease, or taken back by itself at once (docs/processes.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogs.umtali.alive import heartbeat
from cogs.umtali.claims import LEASE
from cogs.umtali.service import MatchService
from data.store import Store
from tests.discord_helpers import World, cut, start_match
from tests.processes.helpers import (
    first_line,
    greedy_via,
    kill,
    main_of,
    results,
    row,
    said,
    settle,
    via,
)
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer


async def test_a_killed_process_has_its_match_taken_over_within_seconds(
        world: World, other: MatchService) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    await to_turn_end(world, live)
    assert live.deadline is not None
    await heartbeat(main)  # its last sign of life
    # The turn's last move is saved, and the process dies before announcing it.
    seat = live.session.to_act
    discard = GreedyPlayer().choose(live.session.view(seat))
    assert (await main.act(live, live.player_ids[seat], discard)).ok
    await kill(main)
    saved = (await row(world, live.id))
    assert saved["owner"] == "main" and json.loads(saved["unsent"]), "nothing posted"
    old_deadline = saved["deadline"]
    # Within a lease and a tick, the other process holds it: the turn gets back the time
    # lost, the announcement is posted once, the timer runs there.
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == "p2"
    theirs = other.matches[live.id]
    assert theirs.deadline is not None and theirs.deadline >= old_deadline + LEASE
    assert json.loads((await row(world, live.id))["unsent"]) == []
    turn_end = first_line(live.last_turn)
    assert len(said(world, theirs, turn_end)) == 1
    # The players play on through the other process, to the end; the result is counted once.
    with via(world, other):
        for _ in range(2000):
            if theirs.over:
                break
            await greedy_via(world, other, live.id)
            await settle(world, other)
    assert theirs.over
    assert [r["match_id"] for r in (await results(world))] == [live.id]
    plies = [r["ply"] for r in await other.store.db.fetchall(
        "SELECT ply FROM moves WHERE match_id = ? ORDER BY ply", (live.id,))]
    assert plies == list(range(len(plies)))


async def test_a_killed_process_practice_match_plays_on_with_the_computer_elsewhere(
        world: World, other: MatchService) -> None:
    result = await world.alice.slash(world.channel, "umtali practice")
    assert result.acknowledged
    await cut(world, result)
    main = main_of(world)
    [live] = main.matches.values()
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    theirs = other.matches[live.id]
    assert theirs.computer_seat is not None
    # The member plays on there; the computer answers there.
    before = theirs.version
    for _ in range(6):
        if theirs.over:
            break
        assert theirs.session.to_act != theirs.computer_seat
        await greedy_via(world, other, live.id)
        await settle(world, other)
    moved = [m for m in theirs.session.moves[before:]]
    assert len(moved) > 6 or theirs.over, "the computer played in the other process"
    assert (await row(world, live.id))["owner"] == "p2"


async def test_a_restarted_process_takes_back_its_own_matches_at_once(
        world: World, store_target: str | Path, other: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cogs.umtali.claims.CLAIMS", 1)  # claimed page by page
    live = await start_match(world)
    main = main_of(world)
    await kill(main)
    # Restarted with the same name before its lease ran out: nobody else took the match,
    # and it is its own again at once.
    store = await Store.open(store_target)
    again = MatchService(world.bot, store, clock=world.clock, computer_pause=0)
    try:
        assert await again.load_active() == 1
        await other.check_timers()
        assert live.id in again.matches and live.id not in other.matches
        assert (await row(world, live.id))["owner"] == "main"
    finally:
        await again.close()
        await store.close()
