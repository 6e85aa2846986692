"""What a copy of a match another process holds takes from that holder's notes
(``cogs.umtali.alive``): since when its turn has stood still there (``LiveMatch.held_still``:
the holder's gateway down, or connecting, or a pause of its being given) and the time it owes
the turn (``LiveMatch.owed_elsewhere``). A move is judged with both; an action here taking the
match owes them here (``owe_taken``), lest this process's running clock forfeit the turn for
the other's outage."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.alive import Notes, held_since, notes_of
from cogs.umtali.give_back import owe
from cogs.umtali.judged import owed_on
from cogs.umtali.live import LiveMatch

if TYPE_CHECKING:
    from cogs.umtali.owners import Owners
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

def owe_taken(svc: MatchService, live: LiveMatch) -> None:
    """``live`` was taken (by an action here) from its holder: the time its turn stood still
    there is the turn's, as that holder would have given it back (``clock.gateway_back``),
    owed here (saved at the next check, the turn not judged until then); so is the time that
    holder owed it, if on the deadline as taken (a payment saved before the take moved it
    on), as that holder, finding the match taken, pays it no more (``give_back._pay_one``)."""
    since, live.held_still = live.held_still, None
    entry, live.owed_elsewhere = live.owed_elsewhere, None
    if live.over or live.deadline is None:
        return
    if since is not None and (gap := svc.clock() - since) > 0:
        svc.clock_state.owed[live.id] = (live.deadline, gap)
    if entry is not None and (gap := owed_on(entry, live.deadline)) != 0:  # (< 0: a step back)
        owe(svc, {live.id: (entry[0], gap)})


async def holder_notes(owners: Owners, match_id: int,
                       holder: str | None = None) -> tuple[str | None, Notes]:
    """The match's holder (``holder``, else as its lease says) and its notes of its clocks;
    none if this process holds it, or if they cannot be read (judged as a clock that runs: no
    time counted twice)."""
    try:
        holder = holder or await owners.leases.holder(match_id)
        if holder is None or holder == owners.name:
            return holder, (None, None)
        return holder, await notes_of(owners.svc.store, holder)
    except Exception as e:
        log.info("match %d: its holder's note could not be read again (%s: %s)", match_id,
                 e.__class__.__name__, e)
        return holder, (None, None)


async def notes_before(owners: Owners, live: LiveMatch) -> Notes | None:
    """For ``still_again``: the notes of the holder ``live`` was read from, read before
    ``live`` takes the match (None if nothing of it stood still then)."""
    if live.held_still is None or live.held_by is None or \
            owners.svc.matches.get(live.id) is live:
        return None
    return (await holder_notes(owners, live.id, live.held_by))[1]


def still_again(live: LiveMatch, before: Notes | None) -> None:
    """``live``, a copy read while its holder's clocks stood still (``held_still``), took the
    match with its turn's clock as saved, moved on since (time given back): since when the
    notes of the holder it was read from, read just before the take (``before``:
    ``notes_before``), have that turn standing still. An outage over before, its time is in
    the deadline as saved and nothing stands still (counted again, a late move was played, a
    take owed the outage twice); another payment made during the outage (a pause's, time
    owed), the outage goes on (forgotten, the move was refused, the player forfeited at a take
    for the other process's outage). Not read after the take: the outage over just after says
    the clocks ran, its time given by nobody; and this process holds the match then, its copy
    not in memory yet (a lookup meanwhile would load another)."""
    was, live.held_still = live.held_still, None
    if was is not None and before is not None:
        live.held_still = held_since(before, live.id, live.deadline)
