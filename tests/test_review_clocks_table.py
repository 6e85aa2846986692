"""The table says when the turn ends ("Turn ends in 4 minutes") and each player's reserve: when
the clocks give a turn time back (a gateway outage, the time spent connecting after a start, a
quick restart's grace), the table is edited to say so, not left showing the old deadline, long
past, while the turn still runs. SimCord, virtual time."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back, gateway_lost
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, dm_panel, flush, player, start_match
from tests.test_clocks_connect import restarted_slowly
from tests.time_control_helpers import played_in_dms, restarted_after, table_text


def _ends(live: LiveMatch) -> str:
    """How the table writes the turn's deadline."""
    assert live.deadline is not None
    return f"<t:{int(live.deadline)}:R>"


async def test_the_table_shows_the_deadline_moved_by_a_gateway_outage(world: World) -> None:
    live = await start_match(world, turn_timer=5)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    assert _ends(live) in table_text(world, live)
    world.clock.now = deadline - 100
    gateway_lost(svc, None)
    world.clock.advance(600)
    await gateway_back(svc, None)
    await flush(world)
    assert live.deadline == pytest.approx(deadline + 600, abs=1)
    assert _ends(live) in table_text(world, live), table_text(world, live)


async def test_the_table_shows_the_connecting_time_given_back(
        world: World, make_bot: Callable[[], UmtaliBot], monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=5)
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    await flush(world)
    await svc.check_timers()
    await flush(world)
    assert restored.deadline == pytest.approx(world.clock.now + 100, abs=1)
    assert _ends(restored) in table_text(world, restored), table_text(world, restored)


async def test_the_table_shows_a_quick_restarts_grace_and_reserve(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """Blitz, 5 s of the turn left at a stop 10 s long (too short to be told in the channel):
    the turn gets a grace, and keeps in its reserve only the 5 s it had."""
    live = await start_match(world, time_control="blitz")
    assert live.deadline is not None and world.bot.matches is not None
    seat = live.session.to_act
    world.clock.now = live.deadline - 5
    _, restored = await restarted_after(world, make_bot, live, 10)
    assert restored.deadline is not None and restored.deadline > world.clock.now + 20
    assert restored.reserves[seat] == pytest.approx(5)
    shown = table_text(world, restored)
    assert _ends(restored) in shown, shown
    name = restored.names[seat]
    assert f"{name} 5 s" in shown and f"{name} 2 min" not in shown, shown


async def test_the_table_shows_a_quick_restarts_time_given_back(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """A turn timer alone, 100 s of the turn left at a stop 20 s long (too short to be told
    in the channel): the turn ends 20 s later than before, and the table says so."""
    live = await start_match(world, turn_timer=5)
    assert live.deadline is not None and world.bot.matches is not None
    deadline = live.deadline
    world.clock.now = deadline - 100
    _, restored = await restarted_after(world, make_bot, live, 20)
    assert restored.deadline == pytest.approx(deadline + 20, abs=1)
    assert _ends(restored) in table_text(world, restored), table_text(world, restored)


async def test_with_the_channel_lost_the_dm_panels_show_the_time_given_back(
        world: World) -> None:
    """The match goes on in DMs (its thread deleted): each player's DM panel carries the
    table, which says when the turn ends."""
    live = await played_in_dms(world, turn_timer=5)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    deadline = live.deadline
    world.clock.now = deadline - 100
    gateway_lost(svc, None)
    world.clock.advance(600)
    await gateway_back(svc, None)
    await flush(world)
    assert live.deadline == pytest.approx(deadline + 600, abs=1)
    for seat in (0, 1):
        panel = dm_panel(player(world, seat), live, seat)
        shown = str(panel.embeds[0].description)
        assert _ends(live) in shown, (seat, shown)
