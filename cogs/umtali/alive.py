"""What a bot process notes in the database for whoever brings its matches back after it
stops (a restart, or another process taking them over): when it was last alive, and the time
its matches' turns were owed and not yet given (``heartbeat``).

The note of when it was last alive is the process's: its clocks standing still (a gateway
outage, a pause, connecting) stand still for every match it holds. Time owed is each match's
own (a give-back whose save failed, ``ClockState.owed``), noted apart, by match: taken with the
match it belongs to, never with another.
"""

from __future__ import annotations

import json
import logging
import math
from typing import TYPE_CHECKING

from cogs.umtali.clock_state import still_since

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: The meta key (before several processes, the only one) noting when the bot was last alive.
ALIVE_AT = "alive_at"
#: Written after that time while the gateway is down: the clocks stood still since then.
STILL = "still"
#: The name of a process that was not given one: a bot alone holds every match under it.
MAIN = "main"
#: The meta key (with the process's name, as ``alive_key``) noting the time owed to its
#: matches' turns.
OWED = "owed"

#: More time than a turn is ever owed (a month of downtime): a note saying more is no clock's.
MOST_OWED = 31 * 24 * 3600.0

#: Time owed, by match id: the deadline it is owed on, and how much.
Owed = dict[int, tuple[float, float]]


def alive_key(owner: str) -> str:
    """The meta key holding when the process ``owner`` was last alive (the one process's
    key is the key from before there were several; '' is a match no process ever held)."""
    return ALIVE_AT if owner in ("", MAIN) else f"{ALIVE_AT}:{owner}"


def owed_key(owner: str) -> str:
    """The meta key holding the time owed to the turns of the process ``owner``'s matches."""
    return OWED if owner in ("", MAIN) else f"{OWED}:{owner}"


async def heartbeat(svc: MatchService) -> None:
    """Note when ``svc``'s process was last alive. While its gateway is down the clocks stand
    still, so it is noted as of the outage's start: a stop meanwhile (the bot cut off from
    Discord restarted) gives each running turn back what it had then, not what was left at
    the stop. So too from a start until the first check (connecting: that check gives the
    time back): the deadlines brought back were moved on to the start, and a note from before
    it would give the time offline again at the next start, one of now take the time spent
    connecting from the turns. So too while a pause of the bot's is not given back yet. With
    it, in the same save, the time owed to its matches, if it changed (``owed_to_note``):
    saved apart, the note of the clocks running could stand with the time owed unsaved, and a
    stop lose it."""
    now, state = svc.clock(), svc.clock_state
    since = [at for at in (None if state.outage is None else state.outage.since,
                           None if state.loaded is None else state.loaded[0],
                           still_since(state)) if at is not None]
    alive = f"{min(now, *since)!r} {STILL}" if since else repr(now)
    notes = {alive_key(svc.owners.name): alive}
    owed = owed_to_note(svc)
    if owed is not None:
        notes[owed_key(svc.owners.name)] = json.dumps(
            {str(match_id): list(entry) for match_id, entry in sorted(owed.items())})
    await svc.store.set_metas(notes)
    state.noting.worked()
    if owed is not None:
        state.owed_noted = owed


def owed_to_note(svc: MatchService) -> Owed | None:
    """The time owed to the turns of the matches ``svc`` holds (a give-back whose save failed:
    ``ClockState.owed``) to be noted, None if noted already: a stop before it is paid, whoever
    brings a match back gives its turn that time too (``owed_of``). A payment saved moved the
    deadline on, so an entry left in the note by a stop before the next one is never given
    again: it is owed on a deadline no longer the turn's. Not while a pause of the bot's is
    being given (owed as it is given: the note of the clocks standing still since its start
    stands meanwhile, and would give it twice with this). An outage's time, or the time spent
    connecting, is owed only once it is over: no part of that note's standing still."""
    state = svc.clock_state
    if state.standing is not None:
        return None
    owed = {match_id: entry for match_id, entry in state.owed.items()
            if (live := svc.matches.get(match_id)) is not None and not live.over
            and live.deadline == entry[0]}
    return None if owed == state.owed_noted else owed


async def noted(svc: MatchService, why: str) -> bool:
    """``heartbeat`` at once, as the clocks' footing changed (a start, time given back or
    owed): whether it was saved. A failure is logged (a WARNING at the first of a run:
    ``ClockState.noting``), and the next tick's heartbeat notes it."""
    try:
        await heartbeat(svc)
    except Exception as e:
        # (At every check while time owed waits to be noted: said once by the run's WARNING.)
        svc.clock_state.noting.failed(e)
        log.debug("the heartbeat %s could not be saved (%s: %s)", why,
                  e.__class__.__name__, e)
        return False
    return True


def last_alive(saved: str | None) -> tuple[float | None, bool]:
    """A process's note of when it was last alive (``heartbeat``), and whether its clocks had
    stood still since then (its gateway down: its leases, renewed meanwhile, do not tell when
    its clocks last ran)."""
    if not saved:
        return None, False
    at, *still = saved.split()
    return float(at), still == [STILL]


def owed_of(saved: str | None) -> Owed:
    """A process's note of the time owed to its matches' turns (``owed_to_note``). A note that
    cannot be read (written by no bot of ours) owes nothing: logged, not trusted; nor an entry
    no clock could owe (not a finite time, nothing, or more than ``MOST_OWED``)."""
    if not saved:
        return {}
    try:
        owed = {int(match_id): (float(was), float(gap))
                for match_id, (was, gap) in json.loads(saved).items()}
    except (ValueError, TypeError, AttributeError, RecursionError) as e:
        log.warning("a note of time owed could not be read (%s: %s)",
                    e.__class__.__name__, e)
        return {}
    kept = {match_id: (was, gap) for match_id, (was, gap) in owed.items()
            if math.isfinite(was) and 0 < gap <= MOST_OWED}
    if kept != owed:
        log.warning("a note of time owed holds times no clock owes: %s",
                    sorted(set(owed) - set(kept)))
    return kept


def owed_on(entry: tuple[float, float] | None, deadline: float | None) -> float:
    """The time a note's ``entry`` owes a turn if it is still owed on ``deadline``, the turn's
    deadline as saved (a payment saved, or a new turn, moved it on: then nothing)."""
    return entry[1] if entry is not None and deadline is not None and \
        entry[0] == deadline and entry[1] > 0 else 0.0
