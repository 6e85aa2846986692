"""The deadline a move is judged by, and whether the clock acts on it yet: the turn's deadline
as saved, with the time still owed to it, the time its clock stands still in an outage or a
pause of the bot's, and the time spent connecting after a start (``clock_state`` keeps what
the clocks know of those).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.umtali.clock_state import CONNECTING, LATE, connecting_since, unjudged
from cogs.umtali.live import LiveMatch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService


def owed_deadline(svc: MatchService, live: LiveMatch) -> float | None:
    """``live``'s deadline with the time still owed to its turn added (a give-back whose save
    failed; held elsewhere, by its holder: ``LiveMatch.owed_elsewhere``): what a move made now
    is judged against, as the clock judges it."""
    entry = svc.clock_state.owed.get(live.id)
    if entry is None and svc.matches.get(live.id) is not live:
        entry = live.owed_elsewhere
    return None if live.deadline is None else live.deadline + owed_on(entry, live.deadline)


def owed_on(entry: tuple[float, float] | None, deadline: float | None) -> float:
    """The time a note's ``entry`` owes a turn if it is still owed on ``deadline``, the turn's
    deadline as saved (a payment saved, or a new turn, moved it on: then nothing). Less than
    nothing: a step back of the clock, owed by the turn (``steps``)."""
    return entry[1] if entry is not None and deadline is not None and \
        entry[0] == deadline else 0.0


def judged_deadline(svc: MatchService, live: LiveMatch, now: float) -> float | None:
    """``live``'s deadline as the clock judges it at ``now``: with the time still owed to its
    turn, the time its clock has stood still in the gateway outage under way (this process's,
    or, held elsewhere, its holder's: ``LiveMatch.held_still``), and, before the
    first check after a start, the time spent connecting that that check gives back (it would
    not forfeit the turn, nor take that time from its reserve)."""
    deadline = owed_deadline(svc, live)
    if deadline is None:
        return None
    state = svc.clock_state
    since = None if state.outage is None else state.outage.still_since(live)
    if live.held_still is not None and svc.matches.get(live.id) is not live:
        # Held by a process whose clocks stand still (its gateway down: the match's server
        # on its shard, the move coming by DM through this one's): it forfeits nobody, and
        # gives the turn this time back once its gateway is (``clock.gateway_back``).
        since = live.held_still if since is None else min(since, live.held_still)
    if since is not None:
        deadline += max(0.0, now - since)
    connecting = state.loaded is not None and state.loaded[1].get(live.id) == live.deadline
    if svc.matches.get(live.id) is live and not connecting:
        # (the time spent connecting, counted to now, holds a pause seen meanwhile)
        deadline += unjudged(state, live)
    if connecting:
        assert state.loaded is not None
        gap = (now if state.first_down is None else min(now, state.first_down)) \
            - connecting_since(state, live.id)
        if gap >= CONNECTING:
            deadline += gap
    return deadline


def run_out(deadline: float | None, now: float) -> bool:
    """The clock acts on ``deadline`` at ``now`` (a forfeit, a time-up question, the reserve
    said to run): once it is ``LATE`` past, not before, as a move made before it may still be
    on its way until then, and is played (``made_in_time``)."""
    return deadline is not None and now >= deadline + LATE


def made_in_time(svc: MatchService, live: LiveMatch, made: float, now: float) -> bool:
    """A move reaching the bot at ``now``, stamped by Discord as made at ``made``, is in time:
    it arrived before the deadline the clock judges by, or was made before it and arrived at
    most ``LATE`` seconds after (a move arriving in time is never refused for Discord's stamp:
    the two clocks may disagree)."""
    deadline = judged_deadline(svc, live, now)
    return deadline is None or now < deadline or (made < deadline and now < deadline + LATE)
