"""This process's copies of matches, as against the database: a match found by id, held here
or loaded fresh (``lookup``); a copy another process, holding the match, has moved on from,
no longer kept (``drop``, ``fell_behind``, ``played_past``); a copy caught up with what was
saved since it was read (``shown_since``, ``after_stale``).

Mixed into ``cogs.umtali.owners.Owners``, which gives it the service, this process's name,
its leases and its claims.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.umtali.alive import Notes, held_since, notes_of, owed_key, owed_of
from cogs.umtali.clock import GRACE
from cogs.umtali.in_dms import owe_at_bring_in
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.refused_here import read
from cogs.umtali.unheard import InDoubt
from data.leases import Leases, Shown
from data.models import Place

if TYPE_CHECKING:
    from cogs.umtali.claims import Claims
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


class Copies:
    svc: MatchService
    name: str
    leases: Leases
    claims: Claims

    def drop(self, live: LiveMatch) -> None:
        """Another process holds ``live`` now: forget this process's copy."""
        self.svc.forget(live)

    async def fell_behind(self, live: LiveMatch) -> bool:
        """Whether ``live`` is a copy another process, holding the match, has moved on from
        (a move, an end, the table brought elsewhere): then it is dropped. Drawn from, it
        would put an earlier position back over the one that process shows, and its buttons
        back on a table replaced since. A copy as the database has it may still be drawn
        from here (a member's choice made through this process, say)."""
        return await self._behind(live) is not None

    async def played_past(self, live: LiveMatch) -> bool:
        """``fell_behind``, and the match as saved is at another version, or ended: what this
        copy would tell a player of its turn (a new panel, which notifies) is told already,
        or owed no more. A copy behind only in where the table is (brought elsewhere through
        another process, the turn unplayed) is dropped too, yet the turn it tells is owed:
        nobody else tells it (that process edits the panels)."""
        saved = await self._behind(live)
        return saved is not None and saved.at[:2] != live.at()[:2]

    async def _behind(self, live: LiveMatch) -> Shown | None:
        """``fell_behind``: the match as saved if ``live`` fell behind it (dropped), else None."""
        was = live.place  # (moved here during the read: not taken back)
        try:
            saved = await self.leases.shown(live.id)
        except Exception as e:
            # The database failing for now: sent as before (what needs it fails by itself).
            log.info("match %d: who holds it could not be read (%s: %s)", live.id,
                     e.__class__.__name__, e)
            return None
        if saved is None or saved.owner == self.name or saved.at == live.at():
            if saved is not None:
                # A panel saved since this copy was read (its former holder's, sent as this
                # process took the match) is the seat's: edited, the older one stripped. So
                # too a table brought elsewhere as this process's save made it the holder.
                live.take_newer_panels(saved.panels)
                unshown = live.never_shown
                if live.take_place(Place(*saved.at[2:]), was):
                    self.svc.delivery.moved(live)
                    if unshown and not await self.shown_since(live):
                        live.table_message_id = None
            return None
        self.drop(live)
        return saved

    async def shown_since(self, live: LiveMatch, *, quiet: bool = True) -> bool:
        """``live``, never shown here, finds its table saved since it was read (posted late by
        the process that made it, the match taken over here): shown there, its turn's deadline
        is the one saved, not the one memory holds to cancel it by
        (``Timing.cancel_unshown_soon``), which would forfeit the player long before it (a
        move within the turn saving it, or a delivery showing it). Whether it was. Unread, or
        no table saved but its own taken down, the copy stays never shown: the timer reads the
        match at that deadline (``Timing._cancel_unshown``). Not ``quiet`` (a move), the read's
        failure is raised: the move is not judged by that deadline, it fails as the database
        does."""
        try:
            row = await self.svc.store.match(live.id)
        except Exception as e:
            if not quiet:
                raise
            log.info("match %d: its clock as saved could not be read (%s: %s)", live.id,
                     e.__class__.__name__, e)
            return False
        if row is None or row.table_message_id in (None, live.taken_down):
            return False
        live.table_message_id = row.table_message_id
        live.deadline, live.warned = row.deadline, row.warned
        return True

    # -- finding a match ------------------------------------------------------------------

    async def lookup(self, match_id: int) -> LiveMatch | None:
        """The match as the database has it: this process's copy if it holds it, else a copy
        loaded fresh (held by nobody here until an action saves it)."""
        before = self.svc.matches.get(match_id)
        holder = await self.leases.holder(match_id)
        if holder is None:
            return None
        # Memory read after each wait: a match the tick brought in meanwhile, loaded fresh,
        # would be a second copy, and an action's save through it would replace the tick's.
        live = self.svc.matches.get(match_id)
        if live is not None:
            # Come in while the holder was read: claimed here after that read (it may name
            # the stopped process the tick took it from), not held elsewhere.
            if holder == self.name or live is not before:
                return live
            self.drop(live)
        elif holder == self.name and match_id in self.claims.unsettled:
            # Claimed here, its turn's resume of unknown outcome: brought in first (the resume
            # read back, or made), not acted on as saved before the downtime. Unread again,
            # the action fails: nothing of it is saved.
            try:
                await self.claims.bring_in_unsettled(match_id)
            except InDoubt as e:
                assert e.__cause__ is not None
                raise e.__cause__ from None
            live = self.svc.matches.get(match_id)
            if live is not None:
                return live
        # The holder's note first: one written after the row was read could miss time it
        # gave back meanwhile (its outage over), and refuse a move in time.
        notes: Notes = (None, None) if holder == self.name else \
            await notes_of(self.svc.store, holder)
        # So too its note of time owed: one written after the row was read could miss a
        # payment saved meanwhile, and give the turn that time again.
        owed = {} if holder == self.name else \
            owed_of(await self.svc.store.get_meta(owed_key(holder)))
        row = await self.svc.store.match(match_id)
        if row is None:
            return None
        if holder != self.name and not self.svc.prefs.language_known(row.guild_id):
            # Another process's match, which an action here may bring in and draw, on a
            # server this one does not hear from: its locale as that process saw it.
            try:
                await self.svc.prefs.learn_language(row.guild_id)
            except Exception as e:  # drawn in English, as before: not the action's failure
                log.warning("match %d: its server's language could not be read (%s: %s)",
                            match_id, e.__class__.__name__, e)
        # Memory read again after these waits: none was left above, so a copy there now was
        # brought in meanwhile (the tick's claim, whoever the holder read), and is the one held.
        if (live := self.svc.matches.get(match_id)) is not None:
            return live
        try:
            fresh = read(LiveMatch.from_row(row))  # (its refused DMs as saved: ``refused_here``)
        except Exception as e:  # (no I/O: the state itself)
            if row.status == "active":
                raise  # (an admin ends it by its id: ``admin_end``)
            # Over, its state unreadable (ended so by an admin): every control on it is told
            # the match is over, as of any match gone (review153: each click an ERROR).
            log.info("match %d: over, its state unreadable (%s: %s)", match_id,
                     e.__class__.__name__, e)
            return None
        if row.stood is not None and row.deadline is not None:
            # Claimed since its holder stopped, not brought in yet (the bring-in failed, or
            # is under way; a restart's own match let go at its start): its clock has stood
            # still since that stop, as the claim saved it, whatever the notes say now. Judged
            # with that and the time owed then, with at least the grace a resume gives
            # (``clock.resume_after_downtime``), and owed them once taken here (``adopt``), as
            # a claim would have.
            since, gap = row.stood
            fresh.held_still = min(since, row.deadline + gap - min(GRACE, float(fresh.turn_timer)))
            fresh.held_by = holder
            fresh.owed_elsewhere = (row.deadline, gap) if gap != 0 else None  # (< 0: a step back)
            return fresh
        if holder != self.name:
            fresh.held_still, fresh.held_by = held_since(notes, match_id, row.deadline), holder
        fresh.owed_elsewhere = owed.get(match_id)
        return fresh

    async def after_stale(self, live: LiveMatch) -> None:
        """A save found the match moved on (reloaded since): if another process holds it
        now, this one's copy is no longer kept. If this one still does, what moved it on was
        saved here unheard (a COMMIT that went through as the connection dropped) or by an
        action since taken back: its announcements, table and hands are sent from here, as
        nobody else will; with the channel lost, a turn of the seat to act that no new panel
        told as saved (a move, "keep waiting") is told by one, as a match brought back is."""
        if self.svc.matches.get(live.id) is not live:
            return
        if await self.leases.holder(live.id) != self.name:
            self.drop(live)
            return
        if live.over:
            live.dm_shown = [None, None]  # an ending without a move leaves the version as it was
        owe_at_bring_in(live)
        self.svc.delivery.enqueue(live, Batch(announce=bool(live.unsent), table=True,
                                              hands={0, 1}))
