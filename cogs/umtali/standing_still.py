"""The bot standing still while it runs: its process paused (a virtual machine suspended, a
debugger, SIGSTOP), its event loop blocked. The timers' loop and a watch beside it
(``cogs.umtali.startup``) see it as a sleep that wakes late on the steady clock; the running
turns get that time back as for a gateway outage. A step of the system's clock is seen apart
(``cogs.umtali.steps``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.alive import noted
from cogs.umtali.claims import LEASE
from cogs.umtali.clock_state import CONNECTING, pause_owed
from cogs.umtali.give_back import owe, pay_noted
from cogs.umtali.steps import note_step

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


async def judged_check(svc: MatchService) -> None:
    """The timers' check (``check_timers``), after the pauses seen (``stood``) are given back
    and the steps of the clock owed (``steps``): one judgement, under
    ``ClockState.judging``."""
    async with svc.clock_state.judging:
        # Woken late: time nobody could play, given back before any judgement.
        await judge_stood(svc)
        # The clock stepped meanwhile (the judging awaits the database): owed first, or the
        # check would judge the turns on it.
        while note_step(svc):
            await judge_stood(svc)
        await svc.check_timers()


async def judge_stood(svc: MatchService) -> None:
    """Under ``ClockState.judging``: the sleeps seen to wake late (``ClockState.stood``),
    each judged in the order seen."""
    stood = svc.clock_state.stood
    while stood:
        since, now = stood.pop(0)
        await stood_still(svc, since, now)


async def stood_still(svc: MatchService, since: float, now: float) -> None:
    """The timers' loop slept from ``since`` to ``now`` when it meant to wake at ``since``: the
    process was paused (a virtual machine suspended, a debugger, SIGSTOP), or its event loop
    blocked. Nobody could play meanwhile (a click not answered within 3 s fails), so each
    running turn gets the time back before its deadline is judged, as for a gateway outage; a
    blip of under ``CONNECTING`` is not. A step back of the clock (``steps``) is judged apart
    here, in the order seen. An
    outage under way stands the clocks still already, and gives its own time back: only the
    pause before it is given here (a paused bot may hear its connection dropped before this
    loop wakes). The first check gives back the time spent connecting, a pause with it. Each
    second is given once, whoever sees it first (the timers' loop, its watch)."""
    state = svc.clock_state
    if not state.checked:
        return
    if now < since:
        # The clock stepped back (``steps``: its time taken off the running turns there):
        # what was judged, and when turns' clocks were set, is ahead.
        state.still_until = None
        state.outages_over = []  # (ahead too)
        for live in svc.matches.values():
            live.clock_from = None
        return
    # Up to ``still_until`` seen already, by the loop or its watch (their sleeps overlap).
    judged = state.still_until
    state.still_until = now if judged is None else max(judged, now)
    if judged is not None:
        since = max(since, judged)
    if now - since >= LEASE:
        # Every lease looks lapsed to a clock stepped (or a process paused) this long: those
        # of other processes on this host, stepped alike, are theirs still, renewed as they
        # wake; not taken from them meanwhile (review150). (Whatever a gateway outage under
        # way gives back itself: the leases' clock stepped all the same, review151.)
        svc.owners.hold_claims(LEASE)
    gap = (now if state.outage is None else min(now, state.outage.since)) - since
    if gap < CONNECTING:
        return
    log.warning("the bot stood still for %.0f s (its process paused, or its event loop "
                "blocked); running turns get the time back", gap)
    # Only the matches held through the pause: one the tick below takes over was resumed
    # with the time since its process stopped, this pause with it.
    gaps = {}
    for live in svc.matches.values():
        # (a turn whose clock was set here since the pause began runs from then; less what
        # an outage over since gave it, heard before this pause was: ``pause_owed``)
        if (stood := pause_owed(state, live, since, now)) > 0:
            assert live.deadline is not None
            gaps[live.id] = (live.deadline, stood)
    # Until it is paid, a stop notes the bot alive as of its start (``alive.heartbeat``).
    state.standing = since
    # Owed at once, paid below: a move reaching the bot meanwhile is judged with it, not
    # refused as late for time nobody could play (a move ending the turn ends what is owed).
    owe(svc, gaps)
    try:
        # The leases first, lapsed meanwhile: a match another process took over is dropped
        # (that one gave its turn the time), and one not taken is kept from being taken while
        # its time is given here (both would give it, and disagree on the deadline).
        renewed = await svc.owners.tick(now)
    except Exception as e:
        svc.owners.renewal.failed(e)
    else:
        if renewed:
            svc.owners.renewal.worked()
    # Noted owed, the clocks running again, before it is paid (``give_back.give_back``).
    state.standing = None
    await pay_noted(svc, "while the bot stood still")
    # Saved at once: a stop before the next heartbeat would give that time back again.
    await noted(svc, "after standing still")
