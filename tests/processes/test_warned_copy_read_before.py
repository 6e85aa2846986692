"""A turn's warning claimed by the holder after another process read its copy of the match,
which then took the match at that same version: ``/umtali table`` (read as the command came,
the table posted, then saved: ``move_to`` reloads a copy behind in version alone). The copy's
warning stayed unclaimed in memory: the new holder's clock, finding the warning claimed in the
database at the turn it holds, took that claim for its own (its answer lost, ``warned_here``)
and warned the player a second time, in the channel, after the holder's DM panel had."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import table_panel
from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import in_dms, row, settle, warned_as
from tests.processes.test_warned_as_brought_back_elsewhere import (
    seen,
    warned_in_panel,
    warnings,
)


async def warned_as_taken(world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
                          take: Callable[[World, MatchService, LiveMatch], Awaitable[None]]
                          ) -> tuple[LiveMatch, LiveMatch, int, set[int]]:
    """Played in DMs, the holder claims the turn's warning just after the other process read
    its copy, which ``take`` then takes as the claim returns: both copies, the seat to act,
    and the messages that seat's player had before."""
    live, main, seat, deadline = await in_dms(world)
    known = {m.id for m in seen(world, seat)}
    copy = await other.lookup(live.id)
    assert copy is not None and not copy.warned
    await warned_as(monkeypatch, main, live, lambda: take(world, other, copy))
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    assert copy.session.to_act == seat and copy.deadline == deadline
    await other.check_timers(now=deadline - 29)
    await settle(world, main, other)
    return live, copy, seat, known


async def brought_back(world: World, other: MatchService, copy: LiveMatch) -> None:
    """``/umtali table`` in the server's channel through ``other``, its copy read before."""
    table = await other.table_message(copy).drawn()
    posted = await world.bot.get_partial_messageable(world.channel.id).send(
        **table.send(), view=table_panel(copy.id))
    await other.move_to(copy, world.channel.id, posted.id)
    other.delivery.enqueue(copy, Batch(table=True, hands={0, 1}))


async def test_a_table_brought_back_with_a_copy_read_before_the_warning_warns_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live, copy, seat, known = await warned_as_taken(world, other, monkeypatch, brought_back)
    assert warnings(world, seat, known) == 1, "the player to act was warned twice"
    assert copy.warned
    assert warned_in_panel(world, live.id, seat)

