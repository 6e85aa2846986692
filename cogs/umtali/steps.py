"""Steps of the system's clock (NTP correcting it, an administrator setting it, a host waking
from sleep, which the steady clock does not count): the wall clock set apart from the steady
one. Neither is time given nor time taken: a running turn keeps what it had left, by the
steady clock, whichever way the clock was stepped (fix160).

A step is seen here alone, as the two clocks set apart since they were last read together
(``note_step``, before each check and before a move is judged late); the timers' loop and its
watch (``cogs.umtali.startup``) see only pauses, on the steady clock, so that no step is seen
twice, nor one way and not the other (a step back seen by the watch, then forward by the loop,
gave the turn the step forward in full). Its time is owed to (forward) or owed by (back) each
running turn held here, and paid as a pause's is, at the check (``give_back``): the turn is not
judged until it is, and a move meanwhile is judged with it (``judged.owed_deadline``). Steps
under ``CONNECTING`` are added up until they come to that (``ClockState.drift``): each not worth
a save of every running turn, but NTP stepping a drifting clock by seconds, again and again,
took them all from the turn.

Not owed: to a turn whose clock was set after the step, by the clock as stepped (a move
arriving since); to a turn standing still in an outage (its time given back when it ends is
read on the wall clock, which takes the step with it); before the first check after a start,
whose time spent connecting is read so too.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.clock_state import CONNECTING, ClockState
from cogs.umtali.give_back import owe
from cogs.umtali.live import LiveMatch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


def note_step(svc: MatchService) -> bool:
    """The system's clock stepped since last looked at, by ``CONNECTING`` or more (with the
    steps under it before, added up): its time owed to the running turns held here, or by
    them (``stepped_by``); whether it did. Both the check and a move's judgement look first,
    so each sees a step the other has not (review150: a step landing between the timers'
    wake and their check forfeited a turn, and a move just after one was refused as late)."""
    state = svc.clock_state
    wall, steady = svc.clock(), svc.ticks()
    mark, state.mark = state.mark, (wall, steady)
    if mark is None:
        return False
    last = (wall - mark[0]) - (steady - mark[1])
    step = state.drift + last
    if abs(step) < CONNECTING:
        # (read a moment apart, the two differ by far less: added up, it stays so)
        state.drift = step
        return False
    state.drift = 0.0
    stepped_by(svc, step, mark[0] + last, wall)
    return True


def stepped_by(svc: MatchService, step: float, since: float, now: float) -> None:
    """The clock stepped by ``step`` seconds (forward, or back if negative), last at ``since``
    or later (by the clock as stepped), looked at ``now``: each running turn held here is owed
    it (back: owes it), but one whose clock was set since then."""
    from cogs.umtali.claims import LEASE  # (claims runs the clocks: imported late)

    state = svc.clock_state
    if step >= LEASE:
        # Every lease looks lapsed to a clock stepped this long: those of other processes on
        # this host, stepped alike, are theirs still, renewed as they wake (review150).
        svc.owners.hold_claims(LEASE)
    if step < 0:
        # What was judged, and when turns' clocks were set, is ahead of the clock as stepped:
        # judged apart, in the order seen (``standing_still.stood_still``).
        state.stood.append((now - step, now))
    if not state.checked:
        return  # (the first check gives the time spent connecting, read on the wall clock)
    gaps = {live.id: (live.deadline, step) for live in svc.matches.values()
            if live.deadline is not None and _owes(state, live, since, now)}
    log.warning("the system's clock stepped %s %.0f s; the running turns keep the time they "
                "had (%d %s)", "forward" if step > 0 else "back", abs(step), len(gaps),
                "given it back" if step > 0 else "have it taken off")
    owe(svc, gaps)
    if step < 0:
        # When turns' clocks were set is ahead of the clock as stepped, from now on (judged
        # so with the step, ``stood_still``): a step forward looked at before that judgement
        # would take a turn set long before for one set after it.
        for live in svc.matches.values():
            live.clock_from = None


def _owes(state: ClockState, live: LiveMatch, since: float, now: float) -> bool:
    """Whether ``live``'s running turn is owed the step (or owes it): not one whose clock was
    set between the step (``since``, on the clock as stepped) and ``now``, nor one standing
    still in an outage (the outage's time, read on the wall clock, takes the step with it)."""
    if live.over or live.deadline is None:
        return False
    if state.outage is not None and state.outage.still_since(live) is not None:
        return False
    set_at = live.clock_from
    return set_at is None or set_at[0] != live.deadline or not since <= set_at[1] <= now
