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
after a gateway outage (``clock.gateway_back``), for the pseudo-shard ``DATABASE``, however
short (a connection refused fails at once, a gateway blip's 5 s would take a failed move's
last seconds). A turn that had time left as its clock stopped, or whose player's move made in
time failed to save meanwhile, gets at least the floor a restart gives (``with_floor``): told
"try again in a moment", its player has a real chance to (once a turn, a restart's grace
counting, but again to that player's own move failed again: a flapping database kept an
absent player's turn alive, review135); and the outage is told in the
match's channel as a restart's is (``clock_state.worth_telling``). Given back through the
database too: what fails to save stays owed, and its turn is not judged until it is paid, so
an outage that never ends forfeits nobody. A turn run out before the last save that worked
is given only the outage's time, and is forfeited as it would have been (one run out after it
had time left as far as the bot can know, and gets the floor). A restart meanwhile gives back
the time since the last note saved, from before the outage."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.clock_state import DATABASE, Outage, Told, worth_telling
from cogs.umtali.judged import made_in_time
from cogs.umtali.live import LiveMatch
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
    heard = min(since, svc.clock())
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
    outage.database, outage.heard = True, heard
    if not state.checked and state.first_down is None:
        state.first_down = outage.since
    log.warning("the database failed (%s: %s); the clocks stand still until it works again",
                error.__class__.__name__, error)


def move_failed(svc: MatchService, live: LiveMatch, seat: int, made: float, arrived: float,
                error: BaseException) -> None:
    """A member's move on ``live`` (at ``seat``), made at ``made``, reaching the bot at
    ``arrived``, failed (``error``): if for the database, the clocks stand still
    (``database_failed``), and the acting player's move made in time gives their turn the
    floor on the database's return (``with_floor``): not the waiting player's."""
    database_failed(svc, arrived, error)
    outage = svc.clock_state.outage
    if outage is not None and failing_for_now(error) and database_down(svc) and \
            live.deadline is not None and not live.over and seat == live.session.to_act and \
            made_in_time(svc, live, made, arrived):
        outage.failed[live.id] = live.deadline


def with_floor(svc: MatchService, outage: Outage, live: LiveMatch, since: float,
               back: float) -> float:
    """The time a database outage (``outage``, over at ``back``) gives ``live``'s turn, its
    clock standing still since ``since``: that time, and up to the floor a restart gives
    (``clock.GRACE``, or the whole turn if shorter) for a turn that had less left then, or
    whose player's move made in time failed meanwhile (told to try again in a moment: a
    second left is no chance to). What to tell and cut with its payment goes in
    ``ClockState.told``."""
    from cogs.umtali.clock import GRACE  # (clock runs the outages: imported late)

    assert live.deadline is not None
    stood, left = back - since, live.deadline - since
    gap = stood
    floor = min(GRACE, float(live.turn_timer))
    reserve = None
    # Once a turn (a flapping database kept an absent player's turn alive, review135), but
    # again to its player's own move made in time that failed.
    state = svc.clock_state
    fresh = live.deadline not in (live.floored, state.floors.get(live.id))
    if ((left > 0 and fresh) or outage.failed.get(live.id) == live.deadline) and left < floor:
        gap = back + floor - live.deadline
        state.floors[live.id] = live.deadline
        # As a restart's grace: the floor is the turn's own time, its reserve keeps only what
        # the turn had left.
        seat, kept = live.session.to_act, max(0.0, left)
        if live.control.reserve > 0 and live.reserves[seat] > kept:
            reserve = (seat, kept)
    tell = worth_telling(stood, live) and not live.never_shown
    # (the outage as seen, not the turn's standstill: dated back, or begun during it)
    seen = back - (since if outage.heard is None else outage.heard)
    if tell or reserve is not None:
        state.told[live.id] = Told(live.deadline, seen if tell else None, reserve)
    return gap
