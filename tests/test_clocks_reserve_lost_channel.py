"""The reserve running, said where the table is: in the match's channel, or with the channel
lost, on the DM panels, which carry the table then."""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, dm_panel, flush, player, start_match
from tests.time_control_helpers import played_in_dms, table_text


def _panel_text(world: World, seat: int, live: LiveMatch) -> str:
    panel = dm_panel(player(world, seat), live, seat)
    return " ".join(str(e.description) for e in panel.embeds) + " ".join(
        str(f.value) for e in panel.embeds for f in e.fields)


async def _own_time_run_out(world: World, live: LiveMatch) -> None:
    """The clock checks once the turn's own time has run out (and ``LATE`` after it)."""
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.clock.now = live.deadline - live.reserves[live.session.to_act] + LATE + 1
    await svc.check_timers()
    await flush(world)


async def test_with_the_channel_lost_the_dm_panels_say_the_reserve_runs(world: World) -> None:
    live = await played_in_dms(world, time_control="blitz")
    seat = live.session.to_act
    await _own_time_run_out(world, live)
    assert live.reserve_running == live.deadline and not live.over
    for each in (seat, 1 - seat):
        assert "reserve is running" in _panel_text(world, each, live)


async def test_the_table_says_the_reserve_runs(world: World) -> None:
    live = await start_match(world, time_control="blitz")
    await _own_time_run_out(world, live)
    assert "reserve is running" in table_text(world, live)
