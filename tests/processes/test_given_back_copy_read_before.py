"""Time given back to a turn by its holder (an outage's, saved at the turn's version: a give
back keeps it) after another process read its copy of the match, which then took the match at
that version (``/umtali table``, read as the command came). The copy kept the deadline from
before: its clock, the holder's now, forfeited the player the outage's time early."""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.give_back import give_back
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import table_panel
from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import read_elsewhere, row, settle

GIVEN = 300.0


async def table_again(world: World, other: MatchService, copy: LiveMatch) -> None:
    """``/umtali table`` in the match's channel through ``other``, its copy read before."""
    table = await other.table_message(copy).drawn()
    posted = await world.bot.get_partial_messageable(copy.channel_id).send(
        **table.send(), view=table_panel(copy.id))
    await other.move_to(copy, copy.channel_id, posted.id)
    other.delivery.enqueue(copy, Batch(table=True, hands={0, 1}))


async def test_a_table_brought_back_with_a_copy_read_before_time_given_back_keeps_it(
        world: World, other: MatchService) -> None:
    live, main, deadline, copy = await read_elsewhere(world, other, turn_timer=2)
    await give_back(main, {live.id: (deadline, GIVEN)}, "of the gateway outage")
    assert (await row(world, live.id))["deadline"] == deadline + GIVEN
    await table_again(world, other, copy)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    await other.check_timers(now=deadline + LATE + 1)
    await settle(world, main, other)
    assert (await row(world, live.id))["status"] == "active", \
        "the player was forfeited before the time given back ran out"
    assert copy.deadline == deadline + GIVEN
