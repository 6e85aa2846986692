"""A copy still marked to look through a seat's DM for panels offering moves (one replaced
and not yet stripped) ran its look after another process had sent that seat a newer panel,
saved as the seat's: not the copy's panel, it lost its buttons, and the player was left with
no panel to play on until the holder's next edit (a notice outside a delivery: the offline
notice after an outage). The panel saved as the seat's is never a stray one."""

from __future__ import annotations

from cogs.umtali.in_dms import send_hand
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from tests.processes.test_overtaken_delivery import offering


async def newer_panel_elsewhere(world: World, other: MatchService) -> tuple[LiveMatch, int]:
    """This process's copy of a match, to look through the seat to act's DM (a replaced panel
    of its own once not stripped), as the other process takes the match and sends that seat
    a new panel: the copy, and the new panel."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat = live.session.to_act
    copy = await other.lookup(live.id)
    assert copy is not None
    await other.owners.hold(copy)
    await other.delivery.send_hand(copy, seat, new=True)
    newer = copy.dm_message_ids[seat]
    assert newer is not None and newer != live.dm_message_ids[seat]
    await settle(world, other)
    assert offering(world, live.id, seat) == [newer]
    live.dm_looked_for[seat] = True
    return live, newer


async def test_a_notice_outside_a_delivery_edits_the_panel_saved_elsewhere(
        world: World, other: MatchService) -> None:
    live, newer = await newer_panel_elsewhere(world, other)
    main, seat = main_of(world), live.session.to_act
    await main.delivery.send_hand(live, seat, note="The bot was offline a moment.")
    await settle(world, main, other)
    assert (await row(world, live.id))[f"dm{seat}_message_id"] == newer
    assert newer in offering(world, live.id, seat), "the seat's panel lost its buttons"

    assert offering(world, live.id, seat) == [newer], "the replaced panel offers moves"


async def test_a_look_in_a_delivery_checked_before_the_newer_panel_leaves_it(
        world: World, other: MatchService) -> None:
    """Within a delivery, whose copy was checked against the database as it began: the
    other process's panel came after that check."""
    live, newer = await newer_panel_elsewhere(world, other)
    main, seat = main_of(world), live.session.to_act
    await send_hand(main, live, seat)
    await settle(world, main, other)
    assert newer in offering(world, live.id, seat), "the seat's panel lost its buttons"
