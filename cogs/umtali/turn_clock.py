"""A match's clock from turn to turn: each turn's deadline, the reserve a turn spent, and the
line the table shows about it.

A turn's deadline is its own time plus what is left of its player's reserve; when the turn
ends, only the time past its own is taken from the reserve (``TimeControl.reserve_after``),
and that is saved with the move that ended it.
"""

from __future__ import annotations

from cogs.umtali.clock_state import LATE
from cogs.umtali.durations import duration_words
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.time_control import time_control
from umtali.i18n import Tr
from umtali.session import Session


def first_clock(name: str, turn_timer: int, now: float) -> tuple[float | None, float]:
    """A new match's first deadline and each player's reserve."""
    control = time_control(name, turn_timer)
    return control.deadline(now, control.reserve), control.reserve


def turn_end(live: LiveMatch, session: Session, seat: int, now: float,
             deadline: float | None,
             ended: float | None = None) -> tuple[float | None, float | None]:
    """``seat``'s turn, whose deadline was ``deadline``, ended at ``now`` (``session``: after
    it; ``ended``: when its last move was made, if earlier): the next turn's deadline, from
    ``now``, and what is left of ``seat``'s reserve (None: nothing was spent, or there is
    none)."""
    control = live.control
    reserve = None
    if deadline is not None and control.reserve > 0:
        reserve = control.reserve_after(deadline, live.reserves[seat],
                                        now if ended is None else ended)
    to_act = session.to_act
    # The clock runs for people only: the computer never keeps anyone waiting long.
    if session.over or live.is_computer(to_act):
        return None, reserve
    left = reserve if to_act == seat and reserve is not None else live.reserves[to_act]
    return control.deadline(now, left), reserve


def back_at_table(live: LiveMatch, seat: int, now: float) -> float | None:
    """``seat`` moves within its turn while the turn's clock stands stopped for the time-up
    question (asked, being asked, or asked and not saved): the player is back at the table, and
    a fair table lets nobody claim the win from a player who is playing. The question is
    withdrawn and the turn given a fresh turn's time from ``now``, as "keep waiting" gives it:
    its deadline (None: not so). Saved with the move, so every process agrees that no question
    stands (``question.stands``)."""
    if (live.over or live.deadline is not None or not live.asks_when_late()
            or live.session.to_act != seat or live.is_computer(seat)):
        return None
    return live.control.deadline(now, live.reserves[seat])


def reserve_running(live: LiveMatch, now: float) -> bool:
    """The turn's own time has just run out and its player's reserve runs: True once a turn
    (the table says so then), ``LATE`` after the own time's end, as the clock acts on a
    deadline (``judged.run_out``: a move made in the own time may be on its way till
    then). Not once the turn's deadline has passed (a reserve of under ``LATE``)."""
    control = live.control
    if live.over or live.deadline is None or control.reserve <= 0 or now >= live.deadline:
        return False
    if live.reserve_running == live.deadline:
        return False
    if not control.in_reserve(live.deadline, live.reserves[live.session.to_act], now - LATE):
        return False
    live.reserve_running = live.deadline
    return True


def reserve_again(live: LiveMatch, now: float) -> None:
    """The turn's deadline moved without a move (time given back, a resume after a restart,
    which loses ``reserve_running``): whether the table says the reserve runs is judged anew
    on it, not left on the deadline before until the next check (review133)."""
    live.reserve_running = None
    reserve_running(live, now)


def clock_time(seconds: float, tr: Tr) -> str:
    """A reserve in words a screen reader says well ("1 minute 15 seconds", not "1:45" nor
    "1 min 15 s", whose bare "s" is read as the letter)."""
    return duration_words(seconds, tr)


def clock_line(live: LiveMatch, tr: Tr) -> str:
    """Whose clock runs and each player's reserve, for the table (matches with a preset time
    control only; a match with the turn timer alone shows its deadline, as before). No
    stopwatch sign: a screen reader would read its name before every line."""
    control = live.control
    if not live.time_control or not control.timed or live.over:
        return ""
    to_act = live.session.to_act
    if live.is_computer(to_act):
        return ""
    names = live.names_in(tr)
    name = safe_name(names[to_act])
    if live.deadline is None:
        if not live.asks_when_late():
            return ""
        return tr("{name}'s time is up: {other} may claim the session or keep waiting.",
                  name=name, other=safe_name(names[1 - to_act]))
    if control.reserve <= 0:
        return tr("{name}'s clock is running.", name=name)
    if live.reserve_running == live.deadline:
        # Its end is the turn's, which the table shows counted down: its figure as at the
        # turn's start, kept on the table while it ran, was wrong (review132).
        other = 1 - to_act
        if live.is_computer(other):
            return tr("{name}'s own time is up: the reserve is running until the turn ends.",
                      name=name)
        return tr("{name}'s own time is up: the reserve is running until the turn ends; "
                  "reserve: {other} {reserve}.", name=name, other=safe_name(names[other]),
                  reserve=clock_time(live.reserves[other], tr))
    reserves = ", ".join(f"{safe_name(names[s])} {clock_time(live.reserves[s], tr)}"
                         for s in (0, 1) if not live.is_computer(s))
    return tr("{name}'s clock is running; reserve: {reserves}.", name=name, reserves=reserves)
