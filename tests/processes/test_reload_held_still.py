"""A copy read while its holder's clocks stood still (its gateway down: the note ``<time> still``,
the copy's ``LiveMatch.held_still``), then the outage given back by the holder (the turn's
deadline moved on, the version kept), then the turn's last move through the copy made after the
deadline given back: the save, judged by the copy's deadline, finds the match moved on, and the
move is judged again on the match as saved (``Playing._reload``). The reload kept
``held_still``: the outage, given back in the deadline as saved, was counted a second time, and
the late discard was played where the holder's clock forfeits the turn."""

from __future__ import annotations

from pathlib import Path

from cogs.umtali.alive import heartbeat
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, process, row, settle
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

OUTAGE = 300.0


async def test_a_late_last_move_through_a_copy_read_during_an_outage_is_refused_after_a_reload(
        world: World, other: MatchService) -> None:
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    # The turn played on the holder up to its discard (the draw, any melds the rules ask
    # for): what is left of it ends it.
    while (move := GreedyPlayer().choose(live.session.view(seat))).kind is not MoveKind.DISCARD:
        assert (await main.act(live, live.player_ids[seat], move, live.version)).ok
    await settle(world, main)
    deadline = live.deadline
    assert deadline is not None
    gateway_lost(main, None)
    await heartbeat(main)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.held_still is not None
    world.clock.advance(OUTAGE)
    await gateway_back(main, None)
    given = deadline + OUTAGE
    assert (await row(world, live.id))["deadline"] == given
    # The turn ran out (as given back) a second ago, and its holder's clock has not acted yet.
    world.clock.now = given + 1
    assert GreedyPlayer().choose(copy.session.view(seat)) == move
    version = copy.version
    outcome = await other.act(copy, copy.player_ids[seat], move, version)
    await settle(world, main, other)
    assert not outcome.ok and "time ran out" in str(outcome.error), \
        "a move made after the deadline given back was played: the outage counted twice"
    assert (await row(world, live.id))["version"] == version


async def test_a_copy_read_during_an_outage_reloaded_at_a_turn_begun_elsewhere_owes_it_nothing(
        world: World, other: MatchService, store_target: str | Path) -> None:
    live = await start_match(world, time_control="normal")
    main = main_of(world)
    await settle(world, main)
    gateway_lost(main, None)
    await heartbeat(main)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and copy.held_still is not None
    world.clock.advance(OUTAGE)
    # The seat to act plays its turn out through a third process, which holds the match from
    # then on: the next turn's clock runs there, from its discard.
    async with process(world, store_target, "p3") as third:
        # Connected (its first check made): else its clocks stand still as it connects, the
        # turn begun there too, and a take owes the turn that time (``alive.still_by_match``).
        await third.check_timers()
        seat = copy.session.to_act
        while True:
            mine = await third.lookup(live.id)
            assert mine is not None
            if mine.session.to_act != seat:
                break
            move = GreedyPlayer().choose(mine.session.view(seat))
            assert (await third.act(mine, mine.player_ids[seat], move, mine.version)).ok
        await settle(world, main, other, third)
        assert (await row(world, live.id))["owner"] == third.owners.name
        begun = (await row(world, live.id))["deadline"]
        assert begun is not None
        # The next seat draws from its panel (of the new turn) through the copy read during
        # the outage: refused on it as out of date, judged again on the match as saved.
        world.clock.advance(10)
        nxt = 1 - seat
        saved = await other.store.match(live.id)
        assert saved is not None
        draw = GreedyPlayer().choose(LiveMatch.from_row(saved).session.view(nxt))
        assert draw.kind is not MoveKind.DISCARD
        outcome = await other.act(copy, copy.player_ids[nxt], draw, saved.version)
        assert outcome.ok, outcome.error
        await settle(world, main, other, third)
        assert (await row(world, live.id))["owner"] == other.owners.name
        world.clock.advance(1)
        await other.check_timers()
        await settle(world, main, other, third)
        assert (await row(world, live.id))["deadline"] == begun, \
            "a turn begun elsewhere after the holder's outage was given that outage's time"
