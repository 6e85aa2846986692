"""Turn deadlines: a warning before the end, a forfeit when time is up, and a fair grace for
the turns that were running while the bot was offline (nobody could play then).

The bot notes in the database when it was last alive (every few seconds, and when it stops),
so that after a restart each running turn gets back the time it had left, and at least a minute.
With several processes each notes its own, and a match taken over from a stopped process gets
back the time since that process was last alive (``cogs.umtali.owners``).

While the bot's connection to Discord's gateway is down (a network outage, Discord's own), no
click or command reaches it and nobody can play: the clocks stop (no warning, no forfeit), and
when it is back each running turn gets back the time its clock stood still (``gateway_lost``,
``gateway_back``): the whole outage, or, for a turn begun during it, since then. What the clocks
know beyond the matches is each service's ``ClockState`` (``cogs.umtali.clock_state``).
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.umtali.alive import Owed, noted
from cogs.umtali.announcing import with_turn, your_turn
from cogs.umtali.clock_state import (
    CONNECTING,
    DATABASE,
    Outage,
    Resumed,
    connecting_since,
    outage_over,
    unjudged,
    worth_telling,
    wrote,
)
from cogs.umtali.db_outage import database_failed, with_floor
from cogs.umtali.downtime_notices import offline_in_dms, offline_notice
from cogs.umtali.give_back import give_back, pay_noted, show_clock
from cogs.umtali.judged import owed_on, run_out
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.out_of_reach import addressed
from cogs.umtali.reminders import TurnNotices
from cogs.umtali.turn_clock import reserve_again, reserve_running
from cogs.umtali.unheard import InDoubt, settle_first, settled

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: A warning goes out this long before a turn's deadline (half the turn, for short turns).
WARN_BEFORE = 60.0
#: After downtime, a running turn gets at least this long (or its whole timer, if shorter).
GRACE = 60.0

def warn_before(live: LiveMatch) -> float:
    """How long before its deadline a turn is warned (reminded, by correspondence): its
    time control's (half the turn, for a short turn timer with no control)."""
    return live.control.warn_before


async def check_timers(svc: MatchService, now: float) -> None:
    """Warn a player whose turn is nearly over; forfeit one whose time ran out (``LATE`` past
    its deadline: a move made in time may be on its way till then, ``run_out``). Each match is
    judged under its own lock; a failure (say, a save) is tried again at the next check. Only
    the matches this process holds are judged (first renewing its leases, every few seconds)."""
    state = svc.clock_state
    first, state.checked = not state.checked, True
    try:
        renewed = await svc.owners.tick(now)
    except Exception as e:
        svc.owners.renewal.failed(e)  # a WARNING at the first of a run only
        database_failed(svc, now, e)
    else:
        if renewed:
            svc.owners.renewal.worked()
            wrote(state, now)
    if first:
        await _connected(svc)
        # The time spent connecting is given back: noted at once, lest a stop before the
        # next heartbeat give it again.
        await noted(svc, "after connecting")
    if state.outage is not None and DATABASE in state.outage.down and \
            await noted(svc, "as the database failed"):
        # The database works again (``db_outage``): the time it failed is given back.
        log.info("the database works again")
        await gateway_back(svc, DATABASE)
    if state.outage is not None:
        # Nobody can play: the clocks stand still until the gateway is back, those of turns
        # started meanwhile (moves, matches taken over) from now.
        if state.outage.note(list(svc.matches.values()), now):
            # Noted at once: another process judges a move on a turn begun here meanwhile
            # by this note (``alive.held_since``), which said nothing of it.
            await noted(svc, "as a turn's clock stood still")
        if state.ask_rest is not None:
            # The REST API out of reach, its end told by a call going through: with nothing
            # else to send (nobody clicking), it is asked.
            state.ask_rest(now)
        return
    owed = state.owed
    if owed or state.deferred:
        unpaid = dict(owed)
        await pay_noted(svc, "owed")
        if owed and owed != unpaid:
            # Paid in part (an outage's end adding to it during the save): the rest, owed on
            # the deadline paid, is noted so at once, lest a stop before the next heartbeat
            # lose it (the note's entry, on the deadline before, is no longer the turn's).
            await noted(svc, "with the time still owed")
    for tick in svc.tick_listeners:
        tick()
    for listener in svc.hand_listeners:
        if isinstance(listener, TurnNotices) and listener.failed:
            # Beside the tick, which must not wait on Discord (``beside``).
            svc.beside.start(listener.again(), None, "the turns' DMs failed before")
    for live in list(svc.matches.values()):
        if state.outage is not None:
            break  # (begun meanwhile: the database failing; nobody can play)
        if live.doubted and not await settle_first(svc, live):
            continue  # its deadline may be a turn already played: not judged on it
        if live.over:
            continue
        # A computer turn that failed (a save, say) is given another go.
        svc.computers.next(live)
        if live.deadline is None or (owed and live.id in owed) or unjudged(state, live) > 0:
            # (a pause the watch saw as this check ran, not judged yet: its time the turn's,
            # judged at the next check, which gives it first)
            continue
        if reserve_running(live, now):
            # The turn's own time is up: the table shows the reserve running (with the
            # channel lost, the DM panels, which carry it).
            show_clock(svc, live)
        try:
            if run_out(live.deadline, now):
                if await svc.forfeit_if_late(live, now):
                    log.info("match %d: seat %d timed out", live.id, 1 - live.session.winner)
            elif not live.warned and now >= live.deadline - warn_before(live):
                await svc.warn_if_due(live, now)
        except Exception as e:
            log.warning("match %d: the turn clock could not act (%s: %s); trying again",
                        live.id, e.__class__.__name__, e)
            # The database failing, nor could a move be saved: the clocks stand still.
            database_failed(svc, now, e)


async def _connected(svc: MatchService) -> None:
    """The first check of a process's timers comes once it is connected to Discord: the
    matches it brought back at its start get the time since back too (nobody could play while
    it connected, which may take minutes when Discord is slow). A match that changed meanwhile
    (a move, its time-up question asked again) or is now held elsewhere is left alone."""
    state = svc.clock_state
    loaded, first_down = state.loaded, state.first_down
    if loaded is None:
        state.first_down = None
        return
    # Up to now, or to the start of the first gateway outage since (under way or over): an
    # outage is given back on its own, and the same seconds must not be given twice. From the
    # start, or from a turn's start since (the computer's reply while connecting).
    end = svc.clock() if first_down is None else first_down
    # A pause of the bot's up to then (the process stopped during this check) is given with
    # it: not again when the watch's sight of it is judged (``standing_still``).
    state.still_until = end if state.still_until is None else max(state.still_until, end)
    gaps = {match_id: (was, end - connecting_since(state, match_id))
            for match_id, was in loaded[1].items()}
    state.loaded = state.first_down = None
    state.begun = {}
    await give_back(svc, {match_id: owed for match_id, owed in gaps.items()
                          if owed[1] >= CONNECTING}, "of connecting")


def hear_gateway(client: discord.Client, svc: MatchService) -> None:
    """Have ``client``'s connection events stop and restart ``svc``'s clocks: each shard's
    for a bot with shards, else its one connection's (discord.py sends both kinds then)."""
    async def dropped(shard: int | None) -> None:
        began = svc.clock_state.outage is None
        gateway_lost(svc, shard)
        if began and not client.is_closed():
            # Noted at once, not at the next heartbeat: another process judges a move on a
            # match held here by this note (``LiveMatch.held_still``).
            await noted(svc, "as the gateway dropped")

    if isinstance(client, discord.AutoShardedClient):
        async def shard_lost(shard_id: int) -> None:
            await dropped(shard_id)

        async def shard_back(shard_id: int) -> None:
            await gateway_back(svc, shard_id)

        listeners: list[tuple[Callable[..., Coroutine[Any, Any, None]], str]] = [
            (shard_lost, "on_shard_disconnect"), (shard_back, "on_shard_connect"),
            (shard_back, "on_shard_resumed")]
    else:
        async def lost() -> None:
            await dropped(None)

        async def back() -> None:
            await gateway_back(svc, None)

        listeners = [(lost, "on_disconnect"), (back, "on_connect"), (back, "on_resumed")]
    if isinstance(client, commands.Bot):
        for listener, event in listeners:
            client.add_listener(listener, event)


def gateway_lost(svc: MatchService, shard: int | str | None) -> None:
    """The gateway connection (of ``shard``) dropped: the clocks stop until it is back."""
    state = svc.clock_state
    if state.outage is None:
        state.outage = Outage(svc.clock())
        state.outage.note(list(svc.matches.values()), state.outage.since)
    state.outage.down.add(shard)
    if not state.checked and state.first_down is None:
        state.first_down = svc.clock()


async def gateway_back(svc: MatchService, shard: int | str | None) -> None:
    """The gateway connection (of ``shard``) is back: once every shard is, each running turn
    gets the outage back (a blip of under ``CONNECTING`` seconds is not worth a save)."""
    state = svc.clock_state
    if state.outage is None:
        return
    outage = state.outage
    outage.down.discard(shard)
    if outage.down:
        return
    state.outage = None
    back = svc.clock()
    log.info("Discord was out of reach %.1f s (its gateway, or its REST API through the "
             "proxy), or the database failed; the clocks go on", back - outage.since)
    # Each turn gets back the time its clock stood still: the whole outage, or since it
    # started during it; after the database failed, however short, with a floor.
    gaps, given = {}, {}
    for live in list(svc.matches.values()):
        since = outage.still_since(live)
        if live.over or live.deadline is None or since is None:
            continue
        gap = with_floor(svc, outage, live, since, back) if outage.database else back - since
        # Less than nothing: the clock stepped back during the outage by more than it lasted
        # (read on the wall clock, the outage takes the step with it: ``steps``).
        if gap != 0 and (outage.database or abs(gap) >= CONNECTING):
            gaps[live.id], given[live.id] = (live.deadline, gap), since
    outage_over(state, outage, back, given)
    await give_back(svc, gaps, "of the gateway outage")
    # What waited through the outage goes out now, not at its next retry.
    svc.delivery.retry_now()
    # The time given back is saved: the note that the clocks stood still goes at once (a crash
    # before the next heartbeat would give that time back again).
    await noted(svc, "after the outage")


async def resume_after_downtime(svc: MatchService, lives: list[LiveMatch],
                                stopped: dict[int, float], owed: Owed | None = None) -> set[int]:
    """Give each running turn back the time it had when its process stopped (``stopped``, by
    match id; at least GRACE), with the time that process owed it then (``owed``, its note:
    a give-back whose save failed), with its warning to come, and say so in the match's
    channel after a real outage. The ids of those whose resume found the match moved on since
    its copy was read, or held by another process now: that copy is stale."""
    gone: set[int] = set()
    now = svc.clock()
    # At the start, until the first check: the time to connect is given back then too.
    state = svc.clock_state
    if not state.checked and state.loaded is None:
        state.loaded = (now, {})
    loaded = None if state.loaded is None or state.checked else state.loaded[1]
    for live in lives:
        earlier = state.resumed.pop(live.id, None)
        if earlier is not None and earlier.found(live) is not None:
            # Resumed before, its outcome unknown then, and saved: carried on as saved, not
            # given its time (nor its notice) twice.
            log.info("match %d: its turn was resumed already (its save's answer lost)",
                     live.id)
            if loaded is not None and live.deadline is not None:
                loaded[live.id] = live.deadline
            show_clock(svc, live)
            continue
        if live.over or live.deadline is None:
            if not live.over and live.asks_when_late() and not live.never_shown:
                # Its clock stopped for the time-up question: the table's edit saying so may
                # have been lost with the process (Discord failing it until the stop).
                show_clock(svc, live)
            continue
        stopped_at = min(stopped.get(live.id, now), now)
        offline = now - stopped_at
        left = max(0.0, live.deadline + owed_on((owed or {}).get(live.id), live.deadline)
                   - stopped_at)
        deadline = now + max(left, min(GRACE, float(live.turn_timer)))
        # Not in a match whose table was never posted: nobody was shown it, and it is
        # cancelled at its deadline (``MatchService.forfeit_if_late``).
        notice = worth_telling(offline, live) and not live.never_shown
        # A turn given more than it had left keeps in its reserve only what that had left:
        # the grace is the turn's own time, not banked for later turns (at a turn's end the
        # reserve keeps what the clock has left, ``TimeControl.reserve_after``).
        seat = live.session.to_act
        reserve = None
        if deadline - now > left and live.control.reserve > 0 and live.reserves[seat] > left:
            reserve = left
        if loaded is not None:
            loaded[live.id] = deadline
        if not notice and abs(deadline - live.deadline) < 1 and reserve is None:
            if loaded is not None:
                loaded[live.id] = live.deadline
            reserve_again(live, now)
            continue
        announce = []
        if notice and not live.channel_lost:
            stamp = discord.utils.format_dt(dt.datetime.fromtimestamp(deadline, dt.UTC), "R")
            tr = svc.public_tr(live)
            name = safe_name(live.names_in(tr)[seat])
            announce.append(with_turn(your_turn(tr, addressed(live, seat, tr)[0]),
                                      offline_notice(offline, name, stamp, tr)))
        sent = Resumed(live.version, deadline, tuple(announce),
                       None if reserve is None else (seat, reserve))
        # Warned already, a turn is warned again only if its end moved by a real amount (a
        # quick restart warned it twice: "50 seconds left", then "60 seconds left").
        keep = live.warned and not worth_telling(deadline - live.deadline, live)
        try:
            # Its answer lost, it is read back (``unheard``); unread, it is read when the
            # match is brought in again (``Owners``), as a second resume would give the turn
            # its time twice, and queue its notice twice.
            unsent = await settled(f"match {live.id}: its turn resumed", svc.store.resume_turn(
                live.id, deadline, announce, sent.reserve, version=live.version,
                owner=svc.owners.name, keep_warned=keep),
                                   functools.partial(_resumed_as, svc, live.id, sent))
        except InDoubt:
            state.resumed[live.id] = sent
            raise
        if unsent is None:
            # A move was saved since this copy was read (by a process taking its lease
            # late): its turn is its own, and this copy, stale, is reloaded at its next save.
            # Or the match was taken again (this process held up past its lease, a player
            # acting elsewhere): dropped at the next renewal. Said (``gone``): the claim
            # holds no such copy of a match held elsewhere (``Claims._brought_in``).
            if loaded is not None:
                loaded.pop(live.id, None)
            gone.add(live.id)
            continue
        moved = abs(deadline - live.deadline) >= CONNECTING
        live.deadline, live.warned, live.unsent = deadline, keep, unsent
        live.clock_from = (deadline, now)
        if deadline - now > left:
            live.floored = deadline  # (the grace: a database outage's floor given)
        if reserve is not None:
            live.reserves[seat] = reserve
        reserve_again(live, now)
        if moved or reserve is not None:
            # A quick restart's grace too (a few seconds' difference is not worth an edit
            # of every table).
            show_clock(svc, live)
        if notice and live.channel_lost:
            # Played in DMs: the notice goes on each player's panel (beside: this may be the
            # tick, which must not wait on Discord).
            svc.beside.start(offline_in_dms(svc, live, offline), live.id, "offline notice")
        log.info("match %d: turn resumed after %.0f s offline; %.0f s left", live.id, offline,
                 deadline - now)
    return gone


async def _resumed_as(svc: MatchService, match_id: int, sent: Resumed) -> list[str] | None:
    """What the match has left to announce if ``sent`` is saved (this process's resume, its
    answer lost); else None."""
    row = await svc.store.match(match_id)
    return None if row is None else sent.found(LiveMatch.from_row(row))
