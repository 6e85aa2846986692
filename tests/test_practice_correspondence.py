"""A practice by correspondence: the computer cannot answer a time-up question, so a day run
out forfeits as other clocks do (it was asked of the computer, who never answered, and the
practice hung), and the reminder says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from simcord.builders import UserHandle

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import HOUR
from tests.discord_helpers import World, cut, flush, the_match, thread_of
from tests.test_faults_timers import db_row
from umtali.players import GreedyPlayer

# The computer thinks in real worker processes on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)


async def _humans_turn(world: World) -> LiveMatch:
    the_bot = world.guild.add_member(UserHandle(world.env, world.env.backend.bot_user))
    r = await world.alice.slash(world.channel, "umtali challenge", opponent=the_bot,
                                time_control="correspondence")
    assert r.acknowledged and not r.ephemeral, r.response.content
    await cut(world, r)
    live = the_match(world)
    assert live.time_control == "correspondence" and live.computer_seat is not None
    await world.bot.matches.computer_idle()  # type: ignore[union-attr]
    await flush(world)
    assert live.session.to_act != live.computer_seat and live.deadline is not None
    return live


async def test_a_practice_by_correspondence_forfeits_a_day_run_out(
        world: World, db_path: Path) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await _humans_turn(world)
    human = 1 - (live.computer_seat or 0)
    deadline = live.deadline
    assert deadline is not None
    await svc.check_timers(now=deadline - 2 * HOUR + 1)
    await flush(world)
    [reminder] = [m.content for m in world.alice.user.dm_channel.history()
                  if m.content.startswith("Reminder")]
    assert "you forfeit the session" in reminder and "may claim" not in reminder
    await svc.check_timers(now=deadline + LATE + 1)
    await flush(world)
    assert live.over and live.session.winner == 1 - human
    assert db_row(db_path, live.id)["status"] == "finished"
    said = [m.content for m in thread_of(world, live).history()]
    assert not any("time for this turn is up" in t for t in said)
    # Later checks change nothing.
    await svc.check_timers(now=deadline + 3 * 24 * HOUR)
    await flush(world)
    assert live.session.winner == 1 - human


async def test_a_practice_by_correspondence_sends_no_dm_a_turn(world: World) -> None:
    """The computer replies within seconds: a "your turn" DM after each of its turns would be
    noise (the reminder before a turn's end still comes, above)."""
    svc = world.bot.matches
    assert svc is not None
    live = await _humans_turn(world)
    human = live.session.to_act
    for _ in range(2):  # two of the player's turns, each answered by the computer
        while live.session.to_act == human and not live.over:
            move = GreedyPlayer().choose(live.session.view(human))
            assert (await svc.act(live, live.player_ids[human], move, live.version)).ok
        await svc.computer_idle()
        await flush(world)
    assert live.session.to_act == human
    told = [m.content for m in world.alice.user.dm_channel.history()
            if "Your turn in the Umtali match" in m.content]
    assert told == []
