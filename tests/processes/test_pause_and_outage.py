"""A pause of the bot's and a gateway outage overlapping (a process cut off from Discord, then
suspended; the gateway heard back before the pause was judged): each second nobody could play
is given once, and noted so for whoever brings the match back meanwhile (review90).

- The outage's give-back waited for the pause (its note covers a pause, which owed the outage
  too); the pause, judged after, was given whole again: the part inside the outage twice.
- Waiting, the outage's time was noted nowhere: the note said the clocks stood still since the
  pause began, and a crash then lost the outage before it.
- A turn begun after the pause (a move as the bot woke) was noted still from the pause's start:
  a copy elsewhere gave it the pause, which was not its own.
- A turn begun during the outage, the process pausing before a check noted it, was given
  nothing of the pause: the outage gave it nothing, and the pause was cut by all the outage
  gave (review91: now by what it gave that turn).
- A turn begun during the outage, noted, then a crash while the pause waited to be judged: the
  note said its clock ran (its time waiting for the pause's), and the take-over gave it only
  the time since the holder's last renewal (review91).

SimCord, virtual time, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from cogs.umtali.alive import noted
from cogs.umtali.claims import LEASE
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.standing_still import judge_stood
from tests.discord_helpers import World
from tests.processes.helpers import checked, kill, row, settle, turn_played
from umtali.players import GreedyPlayer

OUTAGE = 60.0
PAUSE = 300.0


async def pause_inside_an_outage(world: World) -> tuple[MatchService, int, float, float]:
    """The gateway drops; ``OUTAGE`` later the process pauses ``PAUSE`` (the watch sees it);
    the gateway is heard back before the pause is judged. The process, the match, its turn's
    deadline before, and when the outage began."""
    live, main = await checked(world, time_control="normal")
    deadline = live.deadline
    assert deadline is not None
    start = world.clock.now
    gateway_lost(main, None)
    await noted(main, "as the gateway dropped")
    world.clock.advance(OUTAGE)
    since = world.clock.now
    world.clock.advance(PAUSE)
    main.clock_state.stood.append((since, world.clock.now))  # the watch saw it
    await gateway_back(main, None)  # heard before the pause is judged
    return main, live.id, deadline, start


async def test_a_pause_inside_an_outage_is_given_once(world: World) -> None:
    main, match_id, deadline, _ = await pause_inside_an_outage(world)
    async with main.clock_state.judging:
        await judge_stood(main)
    world.clock.advance(1)
    await main.check_timers()
    await settle(world, main)
    assert (await row(world, match_id))["deadline"] == pytest.approx(
        deadline + OUTAGE + PAUSE, abs=2), "the pause inside the outage was given twice"


async def test_a_crash_before_the_pause_is_judged_keeps_the_outage(
        world: World, other: MatchService) -> None:
    main, match_id, deadline, start = await pause_inside_an_outage(world)
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    saved = await row(world, match_id)
    assert saved["owner"] == other.owners.name
    # Nobody could play from the outage's start until the crash: the turn has what it had then.
    assert saved["deadline"] - world.clock.now == pytest.approx(deadline - start, abs=3), \
        "the outage before the pause was lost"


async def test_a_turn_begun_after_a_pause_seen_is_not_noted_still_from_before_it(
        world: World, other: MatchService) -> None:
    live, main = await checked(world, turn_timer=60)
    paused = world.clock.now
    world.clock.advance(PAUSE)
    main.clock_state.stood.append((paused, world.clock.now))  # seen, not judged yet
    seat = live.session.to_act
    while live.session.to_act == seat:  # a move here as the pause waits to be judged
        move = GreedyPlayer().choose(live.session.view(seat))
        assert (await main.act(live, live.player_ids[seat], move, live.version)).ok
    await settle(world, main)
    begun = world.clock.now
    await noted(main, "as Discord's REST API failed")  # any note meanwhile
    world.clock.advance(10)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    assert copy.held_still is None or copy.held_still >= begun, \
        "a turn begun after the pause is noted still from the pause's start"


async def turn_begun_in_an_outage(world: World, noted_still: bool
                                  ) -> tuple[MatchService, LiveMatch, float, float]:
    """A turn begun during an outage of the match's shard (a move by DM), ``noted_still`` by
    a check or not, then a pause of ``PAUSE`` the watch sees, the gateway heard back before
    it is judged. The process, the match, the turn's deadline, and when the pause began."""
    live, main = await checked(world, time_control="normal")
    gateway_lost(main, 1)  # the match's shard; the holder still hears DMs
    await noted(main, "as the gateway dropped")
    world.clock.advance(OUTAGE)
    await main.check_timers()
    await turn_played(world, main, live)
    assert live.deadline is not None
    deadline = live.deadline
    if noted_still:
        world.clock.advance(1)
        await main.check_timers()
    paused = world.clock.now
    world.clock.advance(PAUSE)
    main.clock_state.stood.append((paused, world.clock.now))  # the watch saw it
    await gateway_back(main, 1)  # heard before the pause is judged
    return main, live, deadline, paused


async def test_a_turn_begun_in_an_outage_is_given_the_pause_after_it(world: World) -> None:
    main, live, deadline, _ = await turn_begun_in_an_outage(world, noted_still=False)
    async with main.clock_state.judging:
        await judge_stood(main)
    world.clock.advance(1)
    await main.check_timers()
    await settle(world, main)
    given = (await row(world, live.id))["deadline"] - deadline
    assert given == pytest.approx(PAUSE, abs=2), f"given {given:.0f} s of a {PAUSE:.0f} s pause"


async def test_a_crash_as_the_pause_waits_keeps_a_turn_begun_in_the_outage_standing_still(
        world: World, other: MatchService) -> None:
    main, live, deadline, paused = await turn_begun_in_an_outage(world, noted_still=True)
    await main.owners.renew(world.clock.now)  # renewed beside as it woke
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    saved = await row(world, live.id)
    assert saved["owner"] == other.owners.name
    # It stood still from the check that noted it (just before the pause) until the crash.
    left = saved["deadline"] - world.clock.now
    assert left == pytest.approx(deadline - paused, abs=3), \
        f"resumed with {left:.0f} s left; it had {deadline - paused:.0f} s when it stood still"
