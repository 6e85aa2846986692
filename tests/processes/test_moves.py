"""A member's move reaching the process that does not hold the match: it is played there once,
and the match is held there from then on (docs/processes.md)."""

from __future__ import annotations

import asyncio
import json

from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, play_out, player, start_match
from tests.processes.helpers import first_line, greedy_via, main_of, row, said, settle, via
from tests.test_faults_timers import to_turn_end
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_move_through_another_process_works_and_moves_the_match_there(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await play_out(world, live, moves=2)
    assert (await row(world, live.id))["owner"] == "main" and live.id not in other.matches
    # The next moves reach the other process (a DM goes to shard 0, say): they are played,
    # and the match is held there from then on.
    while True:
        move = await greedy_via(world, other, live.id)
        await settle(world, main, other)
        if move.kind is MoveKind.DISCARD:
            break
    assert (await row(world, live.id))["owner"] == "p2" and live.id in other.matches
    moved = other.matches[live.id]
    # The turn's end was announced once, by the process that made it.
    announced = first_line(moved.last_turn)
    assert len(said(world, moved, announced)) == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    # The first process drops its copy at its next renewal; its timers no longer run it.
    await main.check_timers()
    assert live.id not in main.matches
    # ... and a move reaching it again takes the match back, from the database.
    await greedy_via(world, main, live.id)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "main" and live.id in main.matches
    world.clock.advance(RENEW_EVERY)
    await other.check_timers()
    assert live.id not in other.matches


async def test_a_stale_copy_plays_a_typed_move_on_the_match_as_it_is(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    stale = live  # the first process's copy, about to fall behind
    await greedy_via(world, other, live.id)  # the turn's end, made in the other process
    await settle(world, main, other)
    assert stale.version == (await row(world, live.id))["version"] - 1
    # The next player types their move to the first process, which still has the old copy:
    # its save finds the match moved on, reloads it, and plays the move on it.
    fresh = await other.lookup(live.id)
    assert fresh is not None
    seat = fresh.session.to_act
    move = GreedyPlayer().choose(fresh.session.view(seat))
    outcome = await main.act(stale, stale.player_ids[seat], move)
    assert outcome.ok, outcome.error
    assert (await row(world, live.id))["version"] == fresh.version + 1
    assert (await row(world, live.id))["owner"] == "main" and main.matches[live.id] is stale


async def test_the_same_click_reaching_both_processes_is_played_once(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    version = live.version
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs is not live
    outcomes = await asyncio.gather(
        main.act(live, live.player_ids[seat], move, version),
        other.act(theirs, live.player_ids[seat], move, version))
    await settle(world, main, other)
    assert sorted(o.ok for o in outcomes) == [False, True]
    assert (await row(world, live.id))["version"] == version + 1
    counted = await main.store.db.fetchone("SELECT COUNT(*) AS n FROM moves WHERE match_id = ?",
                                           (live.id,))
    assert counted is not None and counted["n"] == version + 1


async def test_a_typed_move_and_its_autocomplete_reach_a_match_held_elsewhere(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import thread_of

    live = await start_match(world)
    main = main_of(world)
    assert live.id not in other.matches
    seat = live.session.to_act
    actor = player(world, seat)
    thread = thread_of(world, live)
    move = GreedyPlayer().choose(live.session.view(seat))
    with via(world, other):
        # The other process does not hold the match: it finds it in the database.
        choices = await actor.autocomplete(thread, "umtali play", "move", "")
        assert [c["value"] for c in choices] == \
            [str(m) for m in live.session.legal_moves()][:25]
        typed = await actor.slash(thread, "umtali play", move=str(move))
        assert typed.ephemeral
        await settle(world, main, other)
    assert (await row(world, live.id))["version"] == live.version + 1
    assert (await row(world, live.id))["owner"] == "p2" and live.id in other.matches
    # /umtali resign there too asks the question (not "You are not playing").
    fresh = other.matches[live.id]
    quitter = player(world, fresh.session.to_act)
    with via(world, main):
        asked = await quitter.slash(thread, "umtali resign")
    assert asked.ephemeral and "Resign the session?" in (asked.response.content or "")
