"""The database failing for now (``failing_for_now``: an SQLite file locked past its busy
timeout, PostgreSQL out of reach) stands the clocks still as a gateway outage does: no move
can be saved meanwhile, so nobody can play, and a player whose move failed to save, told to
try again in a moment, lost on time for the bot's failure (review132).

It begins at the first failure the clocks hear of: a member's move (from when it arrived: its
turn's clock stands still from then), or the clock's own work (a forfeit, a warning, the
leases' renewal, every few seconds), from the last of its writes known to work, if that was a
moment before (``BACKDATE``): the database may have failed since, a move on another process
failing with it (the holder's clock judges the turn, and heard of no failure until its own).
It ends at the first check whose note of when the bot was last alive
(``alive.noted``) is saved: each running turn is given back the time its clock stood still, as
after a gateway outage (``clock.gateway_back``), for the pseudo-shard ``DATABASE``. Given back
through the database too: what fails to save stays owed, and its turn is not judged until it
is paid, so an outage that never ends forfeits nobody. A turn run out before the outage began
is given only the outage's time, and is forfeited as it would have been. A restart meanwhile
gives back the time since the last note saved, from before the outage."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.clock_state import DATABASE, Outage
from data.failing import failing_for_now

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: A database outage heard of is taken to have begun at the last write known to work (a
#: renewal, a note: every ``RENEW_EVERY`` seconds) if that was at most this long before.
BACKDATE = 10.0


def database_down(svc: MatchService) -> bool:
    """Whether the clocks stand still for the database (with or without a gateway outage)."""
    outage = svc.clock_state.outage
    return outage is not None and DATABASE in outage.down


def database_failed(svc: MatchService, since: float, error: BaseException) -> None:
    """If ``error`` is the database failing for now (``failing_for_now``), at something begun
    at ``since`` (a move's arrival, a check): the clocks stand still from then until it works
    again. A gateway outage under way already stands them still, from its own start."""
    state = svc.clock_state
    if not failing_for_now(error) or database_down(svc):
        return
    saved = state.saved_at
    if saved is not None and since - BACKDATE <= saved < since:
        since = saved
    outage = state.outage
    if outage is None:
        since = min(since, svc.clock())
        outage = state.outage = Outage(since)
        for live in svc.matches.values():
            if live.over or live.deadline is None:
                continue
            # A turn begun since then (a move saved on it meanwhile) stands still from its
            # start: its clock ran only since.
            began = live.clock_from[1] if live.clock_from is not None and \
                live.clock_from[0] == live.deadline else since
            outage.still[live.id] = (live.deadline, max(since, began))
    outage.down.add(DATABASE)
    if not state.checked and state.first_down is None:
        state.first_down = outage.since
    log.warning("the database failed (%s: %s); the clocks stand still until it works again",
                error.__class__.__name__, error)
