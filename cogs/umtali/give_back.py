"""Time given back to running turns for time nobody could play (the bot connecting, a gateway
outage): each deadline moved on, saved before memory; what fails to save stays owed and is
tried again at each check (``cogs.umtali.clock`` decides what is owed and when)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.alive import noted, owed_to_note
from cogs.umtali.clock_state import Told, pause_since, worth_telling
from cogs.umtali.downtime_notices import unsaved_notice
from cogs.umtali.lasting import Lasting
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.turn_clock import reserve_again

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


async def give_back(svc: MatchService, gaps: dict[int, tuple[float, float]],
                    why: str) -> None:
    """Move each match's deadline (``gaps``: as it was, and by how much, by match id) on,
    saved before memory; a match that changed meanwhile or is held elsewhere is left alone. A
    save that fails is owed, and tried again at each check (its turn not judged meanwhile).
    Owed first, and noted so (the clocks running again: ``alive.owed_to_note``) before any is
    paid: a copy of a match read by another process between a payment and that note found the
    deadline paid and the clocks still standing, and owed the turn that time again at its
    take, as did a restart after a crash there (review79)."""
    owe(svc, gaps)
    await pay_noted(svc, why)


async def pay_noted(svc: MatchService, why: str) -> None:
    """``_pay`` what is owed, once it is noted (``alive.owed_to_note``; noted here if it is
    not): a note failing leaves it owed, and paid at the first check that notes it
    (``clock.check_timers``). So at every payment, however small the outage that led to it
    (one given no time, the time owed before it not noted yet). Not while a pause of the
    bot's stands the clocks still, seen and not given back yet (``pause_since``): the note
    then says they stand still since it began, which holds what is owed (an outage heard to
    end meanwhile), and paid under it, a copy read elsewhere, or a restart, gave it again; the
    pause's own payment pays it (``standing_still.stood_still``). Noted and paid under one
    hold of ``paying``: noted while another payment is being saved, the time owed was noted on
    the deadline before it, no longer the turn's once that payment is saved (lost at a take)."""
    state = svc.clock_state
    async with state.paying:
        if pause_since(state) is not None:
            return
        # An outage's time owed while the pause waited is paid now: the clocks run again,
        # noted so before any is paid.
        deferred, state.deferred = state.deferred, []
        if not state.owed:
            if deferred:
                await noted(svc, "as the clocks run again")
            return
        if (owed_to_note(svc) is None and not deferred) or \
                await noted(svc, f"with the time {why} owed"):
            await _pay(svc, why)


def owe(svc: MatchService, gaps: dict[int, tuple[float, float]]) -> None:
    """``give_back``'s time owed, not paid yet: a move is judged with it meanwhile, and its
    turn is not judged until it is paid (``judged.owed_deadline``)."""
    owed = svc.clock_state.owed
    for match_id, (was, gap) in gaps.items():
        before = owed.get(match_id)
        owed[match_id] = (was, gap + (before[1] if before is not None and before[0] == was
                                      else 0.0))


async def _pay(svc: MatchService, why: str) -> None:
    """Save and apply the time ``svc``'s matches are owed; what fails stays owed."""
    owed = svc.clock_state.owed
    for match_id in list(owed):
        live = svc.matches.get(match_id)
        try:
            if live is not None and not await _pay_one(svc, live, why):
                continue
        except Exception as e:
            # Tried at every check: a WARNING at the first failure of a run only.
            unpaid = svc.clock_state.unpaid
            if match_id not in unpaid:
                unpaid[match_id] = Lasting(
                    log, f"match {match_id}: time {why} could not be given back",
                    f"match {match_id}: time owed given back")
            unpaid[match_id].failed(e)
            continue
        del owed[match_id]  # paid, or no longer owed (the turn changed, the match went)
        svc.clock_state.told.pop(match_id, None)
        svc.clock_state.floors.pop(match_id, None)
        # (the payment says itself that it went through: "... owed given back")
        svc.clock_state.unpaid.pop(match_id, None)


async def _pay_one(svc: MatchService, live: LiveMatch, why: str) -> bool:
    """Save and apply the time ``live`` is owed; False if some stays owed (an outage that
    ended during the save added to it)."""
    state = svc.clock_state
    async with live.lock:
        # Read under the lock: an outage may have added to it meanwhile.
        was, gap = state.owed[live.id]
        # (nothing: a step of the clock back, then forward, netted: ``steps``)
        if live.over or live.deadline != was or gap == 0:
            return True
        if await svc.owners.leases.holder(live.id) != svc.owners.name:
            # Taken over by another process while this one could not renew its leases (its
            # network down with its gateway, say): that one gave the turn its time.
            log.info("match %d: now held by another process", live.id)
            svc.owners.drop(live)
            return True
        deadline = was + gap
        # A turn warned already is warned again only if its end moved by a real amount:
        # each short outage warned it anew (review132), pinging its player.
        keep = live.warned and not worth_telling(gap, live)
        # Guarded by the holder too: another process may take the match between the read
        # above and this save, and give the turn its own time (its version unchanged).
        told = state.told.get(live.id)
        if told is not None and told.was == was:
            if not await _told(svc, live, deadline, keep, told):
                return True
        elif not await svc.store.set_deadline(live.id, live.version, deadline,
                                              owner=svc.owners.name, keep_warned=keep):
            return True
        # A turn given its floor keeps it given as its deadline moves on.
        if was in (live.floored, state.floors.pop(live.id, None)):
            live.floored = deadline
        live.deadline, live.warned = deadline, keep
        state.told.pop(live.id, None)
        # The table's reserve words follow the deadline (said running on the one before).
        if live.reserve_running == was:
            reserve_again(live, svc.clock())
        if gap >= 0:
            log.info("match %d: %.0f s %s given back", live.id, gap, why)
        else:  # (a step back of the clock: ``steps``)
            log.info("match %d: %.0f s %s taken off", live.id, -gap, why)
        show_clock(svc, live)
        # The connecting time still to give (first check not run yet) is owed on the deadline
        # as it is now; an outage under way stands the turn still as before.
        if state.loaded is not None and state.loaded[1].get(live.id) == was:
            state.loaded[1][live.id] = deadline
        if state.outage is not None:
            state.outage.moved(live.id, was, deadline)
        # An outage that ended during the save added to what is owed (or a step of the clock
        # took from it: ``steps``): the rest stays owed, on the new deadline.
        now_was, now_gap = state.owed[live.id]
        if now_was == was and now_gap != gap:
            state.owed[live.id] = (deadline, now_gap - gap)
            return False
        return True


async def _told(svc: MatchService, live: LiveMatch, deadline: float, keep: bool,
                told: Told) -> bool:
    """Save the payment of a database outage's time to ``deadline`` with its notice (if worth
    telling; none once the channel is lost, its DM panels show the new end) and its reserve
    cut (``db_outage.with_floor``), in one transaction; False if the match moved on or is
    held elsewhere now. Memory follows: the deadline (by the caller), the reserve, the
    notice queued."""
    announce = [] if told.stood is None or live.channel_lost else \
        [unsaved_notice(svc, live, told.stood, deadline)]
    # Only on the deadline owed on: a payment saved before, its answer lost (the COMMIT gone
    # through), is not saved again, nor its notice added twice.
    unsent = await svc.store.resume_turn(live.id, deadline, announce, told.reserve,
                                         version=live.version, owner=svc.owners.name,
                                         keep_warned=keep, was=told.was)
    if unsent is None:
        return False
    live.unsent = unsent
    if told.reserve is not None:
        live.reserves[told.reserve[0]] = told.reserve[1]
    if announce:
        svc.delivery.enqueue(live, Batch(announce=True))
    return True


def show_clock(svc: MatchService, live: LiveMatch) -> None:
    """The turn's deadline (or a reserve) changed without a move: the table says when the turn
    ends, not the old deadline, long past; with the channel lost, the DM panels carry it (an
    edit even of a panel showing this version). The DM panel of the player to act says it
    too, and their reserve, in either case (``showing.my_reserve``)."""
    if live.channel_lost:
        live.dm_shown = [None, None]
        svc.delivery.enqueue(live, Batch(hands={0, 1}))
    else:
        seat = live.session.to_act
        live.dm_shown[seat] = None
        svc.delivery.enqueue(live, Batch(table=True, hands={seat}))
