"""The clock's side of a match: a turn's deadline run out (forfeit, or under a time control that
asks, the time-up question), its warning, a move still on its way when the deadline passes, and
a match whose table was never posted, cancelled at its first deadline.

Mixed into ``cogs.umtali.service.MatchService``, on top of the endings (``cogs.umtali.endings``);
the checks themselves run from ``cogs.umtali.clock``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

import discord

from cogs.umtali.beside import Beside
from cogs.umtali.clock import check_timers, warn_before
from cogs.umtali.clock_state import LATE
from cogs.umtali.endings import Endings
from cogs.umtali.failures import PASSING
from cogs.umtali.judged import run_out
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import only, ping
from cogs.umtali.reminders import turn_warning
from cogs.umtali.removal import Removals
from cogs.umtali.time_out import ask_waiting_player
from cogs.umtali.unheard import settled
from umtali.i18n import N_

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Said in the channel of a match cancelled at its first deadline, its table never posted.
NEVER_SHOWN = N_("{mentions}: this match was cancelled, as I could not post its table. "
                 "Nothing was recorded; you can start another.")


class Timing(Endings):
    removals: Removals
    beside: Beside
    #: When each move on its way to a match (found, then judged) reached the bot.
    _arriving: dict[int, list[float]]

    async def check_timers(self, now: float | None = None) -> None:
        await check_timers(cast("MatchService", self), self.clock() if now is None else now)

    async def forfeit_if_late(self, live: LiveMatch, now: float) -> bool:
        """The player to act forfeits if, under the lock, their turn's deadline has run out
        (``run_out``: a move made before it may still be on its way for a moment): a move
        saved a moment ago gave the next player a deadline of their own. Under a control that
        asks, the waiting player is asked instead."""
        if live.guild_id in self.removals.leaving:
            return False  # ended with no result, not forfeited (``removal``)
        if live.never_shown:
            await self._cancel_unshown(live, now)
            return False
        if live.asks_when_late():
            return await ask_waiting_player(cast("MatchService", self), live, now)
        async with live.lock:
            if (live.over or not run_out(live.deadline, now)
                    or live.guild_id in self.removals.leaving):
                return False
            assert live.deadline is not None
            if any(at < live.deadline + LATE for at in self._arriving.get(live.id, ())):
                # A move that reached the bot in time for it is still being found (a busy
                # database): it is judged first, and the next check sees what it left.
                return False
            return await self._resign(live, live.session.to_act, "timed out", timer=True)

    @contextlib.contextmanager
    def move_arriving(self, match_id: int, at: float) -> Iterator[None]:
        """A move for the match reached the bot at ``at`` and is being handled: meanwhile the
        clock forfeits no turn the move may be in time for (``forfeit_if_late``)."""
        pending = self._arriving.setdefault(match_id, [])
        pending.append(at)
        try:
            yield
        finally:
            pending.remove(at)
            if not pending and self._arriving.get(match_id) is pending:
                del self._arriving[match_id]

    async def cancel_unshown(self, live: LiveMatch) -> bool:
        """Cancel a match whose table could not be posted (something failed between its save
        and the post): it would otherwise hold both players, for good with no clock. Should
        cancelling fail too, the timer cancels it (``cancel_unshown_soon``), and the error
        is raised."""
        try:
            return await self.abandon(live, "cancelled")
        except Exception:
            self.cancel_unshown_soon(live)
            raise

    def cancel_unshown_soon(self, live: LiveMatch, after: float = 0.0) -> None:
        """Have the timer cancel ``live`` if its table was never posted: its deadline (in
        memory alone: nobody is shown it) is now, or ``after`` seconds from now, clock or
        not; else it would hold both players until its first deadline, days away by
        correspondence, or for good with no clock."""
        if live.never_shown and not live.over:
            # Run out (``run_out``) then: no move of a match nobody saw can be on its way.
            due = self.clock() - LATE + after
            live.deadline = due if live.deadline is None else min(live.deadline, due)

    async def _cancel_unshown(self, live: LiveMatch, now: float) -> None:
        """A match whose table was never posted (its first posts failed and so did cancelling
        it, or the bot stopped between) is cancelled at its first deadline (with no clock, the
        first check after: ``cancel_unshown_soon``): nobody forfeits a match they were never
        shown."""
        if live.over or not run_out(live.deadline, now):
            return
        # Its table may have been saved since it was read here: posted by the process that
        # made it, late (a stall), before this one took it over. Not one this process took
        # down, its save's answer lost: that match was never shown, and is cancelled.
        row = await self.store.match(live.id)
        if row is not None and row.table_message_id not in (None, live.taken_down):
            live.table_message_id = row.table_message_id
            live.deadline = row.deadline
            return
        if not await self.abandon(live, "cancelled"):
            return
        log.info("match %d: its table was never posted; cancelled at its deadline", live.id)
        players = [live.player_ids[seat] for seat in (0, 1) if not live.is_computer(seat)]
        text = self.public_tr(live)(NEVER_SHOWN, mentions=" ".join(map(ping, players)))
        try:
            await self.client.get_partial_messageable(live.channel_id).send(
                text, allowed_mentions=only(*players))
        except (discord.HTTPException, *PASSING) as e:
            log.info("match %d: the cancellation could not be posted (%s)", live.id, e)

    async def warn_if_due(self, live: LiveMatch, now: float) -> None:
        """Tell the player to act that their time is nearly up (once a turn)."""
        async with live.lock:
            if live.over or live.warned or live.deadline is None or live.never_shown or not (
                    live.deadline - warn_before(live) <= now < live.deadline):
                return
            # Claimed in the database: of two processes, one warns. A claim saved with its
            # answer lost is found claimed (``unheard``): refused again, nobody warned.
            leases, version = self.owners.leases, live.version
            claimed = await settled(f"match {live.id}: its warning", leases.claim_warning(
                live.id, version), lambda: leases.warned_here(live.id, version),
                                    doubt=live.doubt)
            # Refused: found claimed at this turn and held here, it is this process's own
            # claim, whose answer and read-back both failed (only the holder claims a turn's
            # warning, and this copy has not sent it): sent now, once. Else another process
            # holds the match now, and warns.
            if not claimed and not await leases.warned_here(live.id, version):
                return
            live.warned = True
            seat, left = live.session.to_act, max(1, round(live.deadline - now))
        # Beside the tick: sent to Discord, it may be slow (``beside``).
        self.beside.start(turn_warning(cast("MatchService", self), live, seat, left), live.id,
                          "turn's warning")
