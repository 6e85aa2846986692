"""A turn resumed after downtime (``resume_after_downtime``: a match taken over, or taken back
at a restart) given more than it had left keeps in its reserve only what it had left, saved
at the turn's version (a resume keeps it). Another process whose copy was read before took the
match at that version (``/umtali table``): its copy learnt the deadline as saved, not the
reserve, and the turn ended there kept the whole reserve from before: the grace banked, the
player given that time twice."""

from __future__ import annotations

from cogs.umtali.clock import GRACE, resume_after_downtime
from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import greedy_via, read_elsewhere, row, settle
from tests.processes.test_given_back_copy_read_before import table_again
from umtali.moves import MoveKind

LEFT = 10.0


async def test_a_take_with_a_copy_read_before_a_resume_keeps_the_reserve_it_left(
        world: World, other: MatchService) -> None:
    live, main, deadline, copy = await read_elsewhere(world, other, time_control="normal")
    seat = live.session.to_act
    assert live.reserves[seat] > LEFT
    # The holder, stopped with LEFT seconds of the turn left, brings it back: it gets the
    # grace, its reserve keeps what it had left.
    world.clock.now = deadline - 5
    await resume_after_downtime(main, [live], {live.id: deadline - LEFT})
    assert (await row(world, live.id))[f"reserve{seat}"] == LEFT
    assert (await row(world, live.id))["deadline"] == world.clock() + GRACE
    await table_again(world, other, copy)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert copy.reserves[seat] == LEFT, "the copy kept the reserve from before the resume"
    # The turn played out at once there: no reserve spent, none gained.
    while (await greedy_via(world, other, live.id)).kind is not MoveKind.DISCARD:
        await settle(world, main, other)
    await settle(world, main, other)
    assert (await row(world, live.id))[f"reserve{seat}"] == LEFT
