"""What a bot process notes in the database for whoever brings its matches back after it
stops (a restart, or another process taking them over): when it was last alive, and the time
its matches' turns were owed and not yet given (``heartbeat``).

The note of when it was last alive is the process's: its clocks standing still (a gateway
outage, a pause, connecting) stand still for every match it holds. Time owed is each match's
own (a give-back whose save failed, ``ClockState.owed``), noted apart, by match: taken with the
match it belongs to, never with another.
"""

from __future__ import annotations

import functools
import json
import logging
import math
from typing import TYPE_CHECKING

from cogs.umtali.clock_state import connecting_since, pause_since, still_since, wrote
from data.store import metas

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService
    from data.db import Reads
    from data.store import Store

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
#: The meta key (with the process's name, as ``alive_key``) noting, while its clocks stand
#: still, since when each running turn has (``still_by_match``): apart from the note of when
#: it was last alive, which a bot from before reads whole (a rollback).
STILL_BY_MATCH = "still_by_match"
#: That note's fields: the note of when it was last alive it goes with, and its entries.
NOTED, TURNS = "noted", "turns"

#: More time than a turn is ever owed (a month of downtime): a note saying more is no clock's.
MOST_OWED = 31 * 24 * 3600.0

#: Time owed, by match id: the deadline it is owed on, and how much.
Owed = dict[int, tuple[float, float]]


def alive_key(owner: str) -> str:
    """The meta key holding when the process ``owner`` was last alive (the one process's
    key is the key from before there were several; '' is a match no process ever held)."""
    return ALIVE_AT if owner in ("", MAIN) else f"{ALIVE_AT}:{owner}"


def still_key(owner: str) -> str:
    """The meta key holding since when the process ``owner``'s turns have stood still."""
    return STILL_BY_MATCH if owner in ("", MAIN) else f"{STILL_BY_MATCH}:{owner}"


#: A process's notes of its clocks, read together (``notes_of``): when it was last alive, and
#: since when each of its turns has stood still.
Notes = tuple[str | None, str | None]


async def notes_of(store: Store, owner: str) -> Notes:
    """The notes of the process ``owner``'s clocks, read in one statement (both from one
    heartbeat)."""
    got = await store.get_metas([alive_key(owner), still_key(owner)])
    return got.get(alive_key(owner)), got.get(still_key(owner))


async def notes_in(reads: Reads, owner: str) -> tuple[Notes, Owed]:
    """The process ``owner``'s notes of its clocks (``notes_of``) and of the time it owed its
    turns (``owed_of``), read in one statement through ``reads`` (a claim's transaction)."""
    keys = [alive_key(owner), still_key(owner), owed_key(owner)]
    got = await metas(reads, keys)
    return (got.get(keys[0]), got.get(keys[1])), owed_of(got.get(keys[2]))


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
    # By match too: another process judges a move, or takes a match, by its own turn's;
    # with the note it goes with (a newer bot's left after a rollback is not read).
    by_match = json.dumps({NOTED: alive, TURNS: {
        str(match_id): entry for match_id, entry in sorted(still_by_match(svc).items())}},
        separators=(",", ":")) if since else ""
    notes = {alive_key(svc.owners.name): alive, still_key(svc.owners.name): by_match}
    owed = owed_to_note(svc)
    if owed is not None:
        notes[owed_key(svc.owners.name)] = json.dumps(
            {str(match_id): list(entry) for match_id, entry in sorted(owed.items())})
    await svc.store.set_metas(notes)
    state.noting.worked()
    wrote(state, now)
    if owed is not None:
        state.owed_noted = owed


def still_by_match(svc: MatchService) -> dict[int, list[float | None]]:
    """Since when each running turn of ``svc``'s matches has stood still (None: its clock runs,
    a turn begun since the last check of an outage), and the deadlines that holds on: the
    turn's, and, time owed to it and not paid yet, the one its payment sets (an outage going
    on after it, the turn still stands still: ``Outage.moved``). Not while a pause of the bot's
    is not given back yet: the time owed then may hold the pause, whose standing still this
    note holds too (a copy would count it twice)."""
    state = svc.clock_state
    pause = pause_since(state)
    by_match: dict[int, list[float | None]] = {}
    for live in svc.matches.values():
        if live.over or live.deadline is None:
            continue
        # A turn whose clock was set here after the pause began (a move after the bot woke,
        # a take) ran since: the pause is not its own (``standing_still``).
        set_at = live.clock_from[1] if live.clock_from is not None and \
            live.clock_from[0] == live.deadline else None
        since = [] if pause is None or (set_at is not None and set_at > pause) else [pause]
        # The outage under way, and those over whose time waits for a pause's.
        for outage in ([] if state.outage is None else [state.outage]) + state.deferred:
            if (noted := outage.still_since(live)) is not None:
                since.append(noted)
        if state.loaded is not None and state.loaded[1].get(live.id) == live.deadline:
            since.append(connecting_since(state, live.id))
        entry: list[float | None] = [min(since, default=None), live.deadline]
        owed = state.owed.get(live.id)
        if pause is None and owed is not None and owed[0] == live.deadline:
            entry.append(owed[0] + owed[1])  # as ``give_back._pay_one`` sets it
        by_match[live.id] = entry
    return by_match


def owed_to_note(svc: MatchService) -> Owed | None:
    """The time owed to the turns of the matches ``svc`` holds (a give-back whose save failed:
    ``ClockState.owed``) to be noted, None if noted already: a stop before it is paid, whoever
    brings a match back gives its turn that time too (``owed_of``). A payment saved moved the
    deadline on, so an entry left in the note by a stop before the next one is never given
    again: it is owed on a deadline no longer the turn's. Not while a pause of the bot's,
    seen, is not given back yet (owed as it is given, or an outage's time heard to end
    meanwhile: the note of the clocks standing still since its start stands meanwhile, and
    holds that time, given twice with this). An outage's time, or the time spent
    connecting, is owed only once it is over: no part of that note's standing still."""
    state = svc.clock_state
    if still_since(state) is not None:
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


def held_since(notes: Notes, match_id: int, deadline: float | None) -> float | None:
    """Since when a holder's ``notes`` (``notes_of``) have the match's turn standing still, the
    turn as saved ending at ``deadline``; None if its clock runs. Its entry by match
    (``still_by_match``) if it holds for that deadline; none there, the turn moved on since
    the note (a new turn, its clock running until the holder's next check notes it, and the
    note with it): None. With no entries by match (a bot from before them): since the time
    its note of when it was last alive says, as then."""
    at, still = last_alive(notes[0])
    if at is None or not still or deadline is None:
        return None
    since, by_match = turn_still(notes, match_id, deadline)
    return since if by_match else at


def turn_still(notes: Notes, match_id: int, deadline: float) -> tuple[float | None, bool]:
    """A holder's entry by match for the turn ending at ``deadline`` (``held_since``), its
    clocks standing still: since when (None: its clock ran, or the turn moved on since), and
    whether there were entries to read (none from a bot before them, or left by a newer bot
    before a rollback, written with another note of when it was last alive)."""
    at, _ = last_alive(notes[0])
    assert at is not None
    try:
        turns = _turns(notes)
        if turns is None:
            return None, False
        entry = turns.get(str(match_id))
        if entry is None or deadline not in entry[1:] or entry[0] is None:
            return None, True
        since = float(entry[0])
        if since < at:  # (no turn stood still before its process did)
            raise ValueError(f"{since!r} before {at!r}")
    except (ValueError, TypeError, AttributeError, IndexError, RecursionError) as e:
        log.warning("a note of since when a process's turns stood still could not be read "
                    "(%s: %s)", e.__class__.__name__, e)
        return None, False
    return (since, True) if math.isfinite(since) else (None, True)


def _turns(notes: Notes) -> dict[str, list[float | None]] | None:
    """The entries by match of ``notes``, None if it has none for its note of when the process
    was last alive (``heartbeat`` writes both together)."""
    if not notes[1]:
        return None
    parsed = _parsed(notes[1])
    if not isinstance(parsed, dict) or parsed.get(NOTED) != notes[0]:
        return None
    turns = parsed.get(TURNS)
    if not isinstance(turns, dict):
        raise ValueError("no entries by match")
    return turns


@functools.lru_cache(maxsize=8)
def _parsed(text: str) -> object:
    """A note by match parsed once, however many matches are read from it (a take-over of
    thousands, each looked up in it: parsed each time, the loop stood still for seconds)."""
    return json.loads(text)


def owed_of(saved: str | None) -> Owed:
    """A process's note of the time owed to its matches' turns (``owed_to_note``). A note that
    cannot be read (written by no bot of ours) owes nothing: logged, not trusted; nor an entry
    no clock could owe (not a finite time, nothing, or more than ``MOST_OWED`` either way: a
    step back of the clock is owed by the turn, less than nothing, ``steps``)."""
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
            if math.isfinite(was) and 0 < abs(gap) <= MOST_OWED}
    if kept != owed:
        log.warning("a note of time owed holds times no clock owes: %s",
                    sorted(set(owed) - set(kept)))
    return kept
