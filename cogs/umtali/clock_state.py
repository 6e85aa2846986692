"""What one service's clocks know beyond its matches (``MatchService.clock_state``): the start,
gateway outages, time owed; and the deadline a move is judged by with them
(``cogs.umtali.clock`` runs the clocks; ``cogs.umtali.judged``, the deadline a move is judged by).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cogs.umtali.lasting import Lasting
from cogs.umtali.live import LiveMatch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

#: Time spent connecting to Discord after a start shorter than this is not given back.
CONNECTING = 5.0
#: A move Discord stamped before its turn's deadline is in time if it reaches the bot at most
#: this long after the deadline (network lag): Discord fails an interaction not answered within
#: 3 s of its making, so one later than that was not made in time as this clock tells (or
#: Discord's clock and this one disagree by more). The clock acts on a deadline only then
#: (``run_out``).
LATE = 3.0
#: The pseudo-shard a database outage is noted under in the gateway's outage (``Outage.down``,
#: ``cogs.umtali.db_outage``).
DATABASE = "database"

#: Downtime at least this long is told in the match's channel (a quick restart is not)...
NOTICE_AFTER = 30.0
#: ...and at least this share of a turn's time: a restart of minutes, a moment of a day's
#: turn, pings nobody by correspondence (the turn's end, moved on, shows on its table).
NOTICE_SHARE = 1 / 20


def worth_telling(offline: float, live: LiveMatch) -> bool:
    """Whether ``offline`` seconds of downtime are told in ``live`` (``NOTICE_AFTER``,
    ``NOTICE_SHARE`` of its turn's time); so too whether a turn already warned is warned again
    with its deadline moved on by that much (``give_back``): short outages in a row pinged its
    player at each (review132)."""
    turn = live.control.turn if live.control.timed else float(live.turn_timer)
    return offline >= max(NOTICE_AFTER, turn * NOTICE_SHARE)


@dataclass(eq=False)
class Outage:
    """A gateway outage under way: the clocks stand still until it is over."""

    since: float
    #: The shards still down (None: the one connection of a bot without shards; ``"rest"``:
    #: Discord's REST API out of reach, ``rest_outage``; ``DATABASE``: the database failing,
    #: ``db_outage``).
    down: set[int | str | None] = field(default_factory=set)
    #: Since when each running turn's clock stands still, by match id, with the deadline it
    #: was noted on: the outage's start for a turn it interrupted; for a turn whose clock
    #: started during it (a move on a shard still up, a match taken over, a time-up question's
    #: clock run out again), the check that first saw its deadline. Each is given back only
    #: the time it stood still, so no second is given twice.
    still: dict[int, tuple[float, float]] = field(default_factory=dict)
    #: The database failed during it (``db_outage``): given back however short (a connection
    #: refused fails at once), and with a floor (``db_outage.with_floor``).
    database: bool = False
    #: The turns whose player's move, made in time, failed to save for the database during it
    #: (by match id, the deadline it failed on): each gets the floor however late it is now.
    failed: dict[int, float] = field(default_factory=dict)
    #: When the database's failure was first heard of (not dated back): the notice says
    #: about how long it was seen failing, not how long a turn stood still (review135).
    heard: float | None = None

    def note(self, lives: list[LiveMatch], now: float) -> bool:
        """Each running turn's clock not noted yet stands still from ``now``: whether any."""
        begun = False
        for live in lives:
            noted = self.still.get(live.id)
            if not live.over and live.deadline is not None and (
                    noted is None or noted[0] != live.deadline):
                self.still[live.id] = (live.deadline, now)
                begun = True
        return begun

    def moved(self, match_id: int, was: float, deadline: float) -> None:
        """A turn's deadline moved from ``was`` to ``deadline`` (time given back): it still
        stands still since when it was noted."""
        noted = self.still.get(match_id)
        if noted is not None and noted[0] == was:
            self.still[match_id] = (deadline, noted[1])

    def still_since(self, live: LiveMatch) -> float | None:
        """Since when ``live``'s turn has stood still (None: its deadline was set since the
        last check, or it has none)."""
        noted = self.still.get(live.id)
        return noted[1] if noted is not None and noted[0] == live.deadline else None


@dataclass(frozen=True, slots=True)
class Resumed:
    """A turn's resume after downtime as sent (``clock.resume_after_downtime``), its outcome
    unknown: its save failed, and so did reading it back (``cogs.umtali.unheard``)."""

    version: int
    deadline: float
    #: The notice of the outage, if any.
    announce: tuple[str, ...]
    #: The reserve left to the seat to act (seat, seconds), if it was cut.
    reserve: tuple[int, float] | None

    def found(self, live: LiveMatch) -> list[str] | None:
        """What ``live`` (the match as saved) has left to announce if this resume is saved
        there: at its version, in play, its clock running to its deadline, its reserve as
        sent, its notice among the unsent (none is added to a match whose channel was lost);
        else None."""
        if (live.version, live.over, live.deadline) != (self.version, False, self.deadline):
            return None
        if self.reserve is not None and live.reserves[self.reserve[0]] != self.reserve[1]:
            return None
        if self.announce and not live.channel_lost and not all(
                text in live.unsent for text in self.announce):
            return None
        return list(live.unsent)


@dataclass(frozen=True, slots=True)
class Told:
    """What a turn's payment after a database outage says and cuts (``ClockState.told``)."""

    #: The deadline the time is owed on: said only with that payment.
    was: float
    #: How long the database was seen failing: the notice says about so, if the time its
    #: clock stood still is worth telling (else None).
    stood: float | None
    #: The reserve left to the seat to act (seat, seconds), cut to what the turn had left:
    #: the floor is the turn's own time, not banked for later turns (as a restart's grace).
    reserve: tuple[int, float] | None


@dataclass(eq=False)
class ClockState:
    """What one service's clocks know beyond its matches (``MatchService.clock_state``): the
    start, gateway outages, and time owed."""

    #: Its timers have been checked once: the matches brought back at the start have had
    #: the time spent connecting given back (``_connected``).
    checked: bool = False
    #: Until that first check: when its matches were brought back, and each one's deadline
    #: then (by match id), or that of a turn begun since (``began``).
    loaded: tuple[float, dict[int, float]] | None = None
    #: Until that first check: when each turn begun since the matches were brought back began
    #: (a computer's reply while connecting), by match id; the others stood still since then.
    begun: dict[int, float] = field(default_factory=dict)
    #: Until that first check: when its gateway first went down since its matches were
    #: brought back (the time spent connecting ends there; the outage is given back apart).
    first_down: float | None = None
    #: While its gateway is down.
    outage: Outage | None = None
    #: When the last write of its clocks' own known to work began (a lease renewal, a note of
    #: when it was last alive: every few seconds): a database outage may have begun since
    #: (``db_outage``).
    saved_at: float | None = None
    #: Time owed to its matches and not saved yet (a save failed): by match id, the deadline
    #: it is owed on and how much. Such a turn is not judged until it is paid.
    owed: dict[int, tuple[float, float]] = field(default_factory=dict)
    #: What of it the database notes (``alive.owed_to_note``): None before the first note.
    owed_noted: dict[int, tuple[float, float]] | None = None
    #: One payment of what is owed at a time (a check's and an outage's end may meet).
    paying: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The payments failing in a row (every check tries: the database away), by match id:
    #: said once as the run begins and once as it is paid (``give_back._pay``).
    unpaid: dict[int, Lasting] = field(default_factory=dict)
    #: The notes of when the process was last alive failing in a row (``alive.noted``): one
    #: failure of the database said once, however many notes it fails.
    noting: Lasting = field(default_factory=lambda: Lasting(
        logging.getLogger("cogs.umtali.alive"), "the heartbeat could not be saved at once",
        "the heartbeat is saved at once again"))
    #: Up to when standing still has been judged (``clock.stood_still``): the timers' loop and
    #: the watch beside it may both see one pause, which is given back once.
    still_until: float | None = None
    #: One judgement at a time: a check, or a pause given back (both renew the leases).
    judging: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Sleeps seen to wake late (the timers' loop's, its watch's), not judged yet: when each
    #: meant to wake and woke, in the order seen; judged first thing under ``judging``. Noted
    #: by the watch without waiting for a check under way, so that it watches on meanwhile.
    #: Late on the steady clock (a step of the wall clock is no pause: ``steps``), up to when
    #: each woke on the wall clock. And each step back of the clock (``steps``), from where
    #: the wall clock was to where it went: judged apart.
    stood: list[tuple[float, float]] = field(default_factory=list)
    #: The wall clock and the steady one as last read together (``steps.note_step``): set
    #: apart since, the system's clock was stepped.
    mark: tuple[float, float] | None = None
    #: The steps of the clock under ``CONNECTING`` since the last one noted, added up
    #: (``steps.note_step``).
    drift: float = 0.0
    #: Since when the pause being given back stood the clocks still, until it is paid.
    standing: float | None = None
    #: The gateway outages over lately: when each ended, and since when it gave each turn it
    #: gave time back to (by match id). A pause judged after one is not given the part of it
    #: the outage gave (the watch may see the pause after it).
    outages_over: list[tuple[float, dict[int, float]]] = field(default_factory=list)
    #: Of those, the ones given back while a pause seen was not: their time owed, paid with
    #: the pause's, the clocks noted standing still since meanwhile (``still_since``,
    #: ``alive.still_by_match``).
    deferred: list[Outage] = field(default_factory=list)
    #: Turns owed time for a database outage that are told so in their channel (by match id:
    #: the deadline owed on, how long the clocks stood still, the reserve left to the seat to
    #: act if cut), with the payment (``give_back``).
    told: dict[int, Told] = field(default_factory=dict)
    #: Turns owed a database outage's floor, not paid yet (by match id: the deadline owed
    #: on): a later outage meanwhile gives only its own time (``LiveMatch.floored``).
    floors: dict[int, float] = field(default_factory=dict)
    #: Turns resumed after downtime, saved or not, unknown (by match id): their matches are
    #: kept claimed and brought in again (``Owners``), and the resume read back then.
    resumed: dict[int, Resumed] = field(default_factory=dict)
    #: Asks Discord's REST API whether it answers again, given the check's time, while it is
    #: out of reach (``rest_outage.hear_rest``; None: not through the proxy).
    ask_rest: Callable[[float], None] | None = None


def wrote(state: ClockState, at: float) -> None:
    """A write of the clocks' own begun at ``at`` worked (``ClockState.saved_at``)."""
    state.saved_at = at if state.saved_at is None else max(state.saved_at, at)


def began(svc: MatchService, live: LiveMatch, now: float) -> None:
    """``live``'s turn began at ``now`` (a move saved, its deadline set). Before the first
    check after a start nobody can play yet (the bot is connecting), so its clock stands still
    until then, as a turn brought back running does: the first check gives it the time since
    ``now`` (``clock._connected``). Nor is a pause of the bot's before ``now`` its own
    (``LiveMatch.clock_from``)."""
    if live.deadline is not None:
        live.clock_from = (live.deadline, now)
    state = svc.clock_state
    if state.loaded is not None and not state.checked and live.deadline is not None:
        state.loaded[1][live.id] = live.deadline
        state.begun[live.id] = now


def still_since(state: ClockState) -> float | None:
    """Since when a pause seen and not given back yet (``pause_since``) stood the clocks
    still, or an outage over whose time waits to be paid with it (``deferred``): a stop
    meanwhile is noted as of then (``alive.heartbeat``), as nobody could play since, and a
    restart gives the turns that time."""
    since = [outage.since for outage in state.deferred]
    pause = pause_since(state)
    return min(since, default=None) if pause is None else min(pause, *since)


#: How long an outage over is kept for a pause judged after it (``ClockState.outages_over``):
#: the watch sees a pause within seconds of the bot waking.
OUTAGES_KEPT = 3600.0


def outage_over(state: ClockState, outage: Outage, end: float,
                given: dict[int, float]) -> None:
    """``outage`` is over at ``end``, given back to the turns of ``given`` (by match id,
    since when): kept for a pause judged after it; deferred if one is seen and not given back
    yet."""
    state.outages_over = [over for over in state.outages_over if over[0] > end - OUTAGES_KEPT]
    state.outages_over.append((end, given))
    if pause_since(state) is not None:
        state.deferred.append(outage)


def given_in_outages(state: ClockState, match_id: int, start: float, end: float) -> float:
    """How much of ``start`` to ``end`` the outages over gave back to the match's turn."""
    return sum(max(0.0, min(end, over) - max(start, given[match_id]))
               for over, given in state.outages_over if match_id in given)


def pause_owed(state: ClockState, live: LiveMatch, since: float, now: float) -> float:
    """What a pause of the bot's from ``since`` (where judging has not reached) to ``now``
    gives ``live``'s turn (``standing_still``): none for a blip under ``CONNECTING``; up to an
    outage under way, which gives its own; from when its clock was set here, if since (a move
    as the bot woke, a take); less what an outage over since gave that turn of it."""
    gap = (now if state.outage is None else min(now, state.outage.since)) - since
    if gap < CONNECTING or live.over or live.deadline is None:
        return 0.0
    end = since + gap
    start = since if live.clock_from is None or live.clock_from[0] != live.deadline \
        else max(since, live.clock_from[1])
    stood = end - start - given_in_outages(state, live.id, start, end)
    return stood if stood >= CONNECTING else 0.0


def unjudged(state: ClockState, live: LiveMatch) -> float:
    """What the pauses seen and not judged yet (``stood``: the watch saw one as a check held
    the judging) will give ``live``'s turn: a move meanwhile is judged with it (refused as
    late, or the reserve charged for time nobody could play, before)."""
    judged, total = state.still_until, 0.0
    if not state.checked:
        return total  # (the first check gives it with the time spent connecting)
    for since, now in state.stood:
        if now < since:
            break  # (the clock stepped back: judged apart)
        total += pause_owed(state, live, since if judged is None else max(since, judged), now)
        judged = now if judged is None else max(judged, now)
    return total


def stepped(svc: MatchService) -> bool:
    """The system's clock stepped since ``steps.note_step`` last looked, not noted yet (a step
    landing during a check, after its look: review151): nothing is claimed on it, until the
    next check judges it."""
    state = svc.clock_state
    mark = state.mark
    return mark is not None and abs(
        state.drift + (svc.clock() - mark[0]) - (svc.ticks() - mark[1])) >= CONNECTING


def pause_since(state: ClockState) -> float | None:
    """Since when a pause seen and not given back yet (``stood``, ``standing``) stood the
    clocks still."""
    judged = state.still_until
    # Each from where the judging has not reached yet.
    late = [start for start, now in ((since if judged is None else max(since, judged), now)
                                     for since, now in state.stood)
            if now - start >= CONNECTING]
    if state.standing is not None:
        late.append(state.standing)
    return min(late, default=None)


def held_from(live: LiveMatch, now: float) -> None:
    """``live`` is held here from ``now`` on: its clock ran elsewhere until then, unless it
    was set here since (resumed as it was taken over: ``LiveMatch.clock_from``)."""
    if live.deadline is not None and (live.clock_from is None
                                      or live.clock_from[0] != live.deadline):
        live.clock_from = (live.deadline, now)


def connecting_since(state: ClockState, match_id: int) -> float:
    """Before the first check: since when the match's turn has stood still (``began``)."""
    assert state.loaded is not None
    return max(state.loaded[0], state.begun.get(match_id, state.loaded[0]))
