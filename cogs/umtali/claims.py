"""Bringing matches into play in this process (``Owners``): at the start, this process's own
and those nobody holds; at each tick, those whose holder stopped renewing its leases (killed).
Each is loaded, its turn given back the time its holder was down (``resume_after_downtime``),
and adopted; one that fails before its resume is saved is let go, to be claimed again (once
saved, it is held whatever fails after). A resume whose outcome is unknown keeps the match
claimed, and brought in again at the next tick."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING

from cogs.umtali.alive import Notes, Owed, last_alive, notes_in, turn_still
from cogs.umtali.clock import resume_after_downtime
from cogs.umtali.in_dms import owe_at_bring_in
from cogs.umtali.judged import owed_on
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.question import Question, stands
from cogs.umtali.refused_here import read
from cogs.umtali.stuck import Stuck
from cogs.umtali.unheard import InDoubt
from data.leases import Claimed
from data.models import Stood

if TYPE_CHECKING:
    from cogs.umtali.owners import Owners
    from cogs.umtali.service import MatchService
    from data.db import Reads

log = logging.getLogger(__name__)

#: Seconds a lease lasts: a killed process's matches are taken over this long after its last
#: renewal (plus a tick).
LEASE = 15.0
#: Matches claimed per transaction.
CLAIMS = 500
#: When a claimed match's process stopped, and the time its turn was owed then (its note:
#: ``alive.owed_to_note``; the match's entry alone).
Down = tuple[float, Owed]

#: Seconds between two warnings about the same match that cannot be taken over: it is tried
#: again at every check (a database failing for now), but a match that can never be loaded
#: would otherwise fill the log with a warning a second.
WARN_AGAIN = 600.0


class Claims:
    def __init__(self, owners: Owners) -> None:
        self.owners = owners
        #: Matches that could not be taken over: failures since the last warning, and when
        #: that warning was given.
        self._failing: dict[int, tuple[int, float]] = {}
        #: Matches claimed whose turn's resume is of unknown outcome (``unheard``): held in
        #: the database, not yet in memory; by match id, the claim and when its process
        #: stopped.
        self.unsettled: dict[int, tuple[Claimed, Down]] = {}
        #: When the claim under way last leased the matches it brought in (``_keep_leases``).
        self._leased_at = 0.0
        #: One of those brought in at a time (the tick's, an action's: resumed once).
        self._bringing = asyncio.Lock()
        #: Those failing at every check: said once at ERROR.
        self.stuck = Stuck()

    @property
    def svc(self) -> MatchService:
        return self.owners.svc

    def tracked(self, match_id: int) -> bool:
        return (match_id in self._failing or match_id in self.unsettled
                or self.stuck.tracked(match_id))

    def forget(self, match_id: int) -> None:
        """The match ended (an admin's ``end-match``): neither brought in again, nor its
        failures counted, nor its lease renewed."""
        self.unsettled.pop(match_id, None)
        self._failing.pop(match_id, None)
        self.stuck.forget(match_id)
        self.svc.clock_state.resumed.pop(match_id, None)

    async def claim(self, *, start: bool = False) -> list[LiveMatch]:
        """Take the matches nobody holds any more (at start, this process's own too), and
        bring them into play here; those brought in."""
        lives: list[LiveMatch] = []
        after = 0
        claimed: set[int] = set()
        self._leased_at = self.svc.clock()
        while True:
            # In batches (a restart may bring back thousands), each batch its own transaction,
            # each brought into memory before the next is claimed, and leased from then.
            now = self.svc.clock()
            # What memory holds as the batch is claimed, read before: a copy an action here
            # adopts once the claim's COMMIT is through, before it returns, is newer (review102).
            held = dict(self.svc.matches)
            batch = await self.owners.leases.claim(
                now, now + LEASE, mine_too=start, lapsed_mine=True, limit=CLAIMS, after=after,
                downtimes=functools.partial(self._stopped_at, now=now))
            if batch:
                after = batch[-1].match_id
                claimed.update(c.match_id for c in batch)
                lives += await self._bring_in(batch, now, start, lives, held)
            if len(batch) < CLAIMS:
                self._failing_no_more(claimed, now)
                return lives

    def _failing_no_more(self, claimed: set[int], now: float) -> None:
        """Forget the failures of the matches not claimed in a whole pass (``claimed``): one
        still failing is let go and claimed at every pass; the others were brought in by
        another process, or ended. Kept until their warning's wait is over, lest a claim that
        failed to be undone (left to lapse, unclaimable meanwhile) warn at every lapse."""
        for match_id, (_, warned) in list(self._failing.items()):
            if match_id not in claimed and now - warned >= WARN_AGAIN:
                del self._failing[match_id]
                if match_id not in self.unsettled:  # (one failing there still is stuck)
                    self.stuck.forget(match_id)

    async def _bring_in(self, claimed: list[Claimed], now: float, start: bool,
                        earlier: list[LiveMatch],
                        before: dict[int, LiveMatch]) -> list[LiveMatch]:
        """Load, resume and adopt each match just claimed, one at a time: one that fails (its
        resume unsaved) is let go (claimable again at once) rather than held in the database
        and not here.
        ``earlier``: those this claim brought in before, in earlier batches; ``before``: what
        memory held as the batch was claimed (read before the claim)."""
        claimed = [c for c in claimed if not self._kept_here(c)]
        stopped = {c.match_id: down_of(c, now) for c in claimed}
        # What memory held as the batch was claimed: a copy there since was adopted by an
        # action here (review99: read match by match, one taken while those before it were
        # brought in was resumed again, its turn given the downtime twice; review102: read
        # once the claim returned, one taken as its COMMIT went through was too).
        held = {c.match_id: before.get(c.match_id) for c in claimed}
        lives: list[LiveMatch] = []
        until = now + LEASE  # (the lease of those still to come)
        for i, c in enumerate(claimed):
            if self.svc.clock() - self._leased_at >= LEASE / 3:
                # Bringing them in outlasts a lease (thousands, a slow database), and at a
                # start nothing else renews them yet: renewed here, those to come too, lest
                # another process take them and resume them again (review98, review99).
                renewed = await self._keep_leases([*earlier, *lives], claimed[i:])
                self._leased_at = self.svc.clock() if renewed is None else renewed
                if renewed is not None:
                    until = renewed + LEASE
            # One bring-in at a time: an action's of the same match, unsettled here (its lease
            # lapsed and claimed again meanwhile: ``bring_in_unsettled``), resumed it too
            # (review102). Whichever comes second finds the first one's copy held, or its
            # resume recorded (``clock_state.resumed``).
            async with self._bringing:
                try:
                    live = await self._brought_in(c, stopped[c.match_id], held[c.match_id])
                except InDoubt:
                    # Its turn resumed, saved or not, unknown: kept claimed (let go, it would
                    # be resumed a second time), and brought in again at the next tick.
                    self.unsettled[c.match_id] = (c, stopped[c.match_id])
                    continue
                except Exception as e:
                    self._could_not_take(c.match_id, e, now)
                    # (at its lease as last renewed: review100, the undoing found none to undo)
                    await self._let_go([c], now, until)
                    continue
                self.unsettled.pop(c.match_id, None)
            if live is not None:
                lives.append(live)
        if claimed and not start:
            log.info("took over %d match(es) from stopped processes: %s", len(lives),
                     ", ".join(sorted({c.previous or "(none)" for c in claimed})))
        return lives

    async def _keep_leases(self, lives: list[LiveMatch], coming: list[Claimed]) -> float | None:
        """Renew the leases of the matches a claim brought in (``lives``), of those it is still
        to bring in (``coming``) and of those whose resume is of unknown outcome, the two last
        keeping the downtime saved with them: when it was done, leased from then. A failure
        (None) leaves them to lapse, as any renewal's."""
        now = self.svc.clock()
        try:
            await self.owners.leases.renew(
                now + LEASE, [live.id for live in lives],
                [*(c.match_id for c in coming), *self.unsettled])
        except Exception as e:
            log.warning("the leases of the matches being brought in could not be renewed "
                        "(%s: %s)", e.__class__.__name__, e)
            return None
        return now

    async def _brought_in(self, c: Claimed, down: Down,
                          before: LiveMatch | None = None) -> LiveMatch | None:
        """Load, resume (its process stopped at ``down``'s time, owing the turn what it
        notes) and adopt the match claimed (``before``: the copy memory held as it was)."""
        if (held := self.svc.matches.get(c.match_id)) is not None and held is not before:
            # Taken by an action here since the claim (judged and owed with the downtime the
            # claim saved: ``Owners.lookup``): held as it is, not resumed again.
            return held
        row = await self.svc.store.match(c.match_id)
        if row is None:
            return None
        live = read(LiveMatch.from_row(row))  # (its refused DMs as saved: ``refused_here``)
        stopped, time_owed = down
        gone = await resume_after_downtime(self.svc, [live], {c.match_id: stopped}, time_owed)
        self._failing.pop(c.match_id, None)
        self.stuck.forget(c.match_id)
        if (held := self.svc.matches.get(c.match_id)) is not None and held is not before:
            # Taken by an action here meanwhile (its save after the row was read: this copy's
            # resume found the match moved on): that copy is newer, owed the downtime as it
            # was taken (``adopt``); this one, held in its place, would pay it on a version
            # gone (lost) and judge the turn by its deadline from before (review94).
            return held
        if c.match_id in gone and await self._held_elsewhere(c.match_id):
            # Moved on as it was read, taken by a player acting through another process
            # (which resumed it as it took it): this copy, stale, is not held here, its timers
            # judging a deadline gone until the next renewal dropped it (review102). Nothing
            # to undo: the claim is that process's now.
            return None
        # Its turn resumed, and saved: from here on the claim is never undone. Let go, the
        # next claim would give the turn its downtime again, from its dead holder's notes,
        # with another offline notice; and again at every check if this failed each time
        # (review102). What fails is said once, and the rest is done all the same.
        failed = []
        for step in (functools.partial(self._adopt, before=before), self._hands_owed,
                     self._question_owed, functools.partial(self._cancelled_if_unshown, c)):
            try:
                step(live)
            except Exception as e:
                failed.append(f"{e.__class__.__name__}: {e}")
            if self.svc.matches.get(live.id) is not live:
                # (``adopt`` failing before memory held it: held all the same, its lease
                # renewed and its clock judged here)
                self.svc.matches[live.id] = live
        if failed:
            log.warning("match %d: brought in, its turn resumed, though some of what follows "
                        "failed (%s); held here all the same", live.id, "; ".join(failed))
        return live

    def _adopt(self, live: LiveMatch, *, before: LiveMatch | None) -> None:
        """``Owners.adopt``. Failing halfway (a bug), what its dead holder saved and never
        posted is queued all the same, as ``adopt`` queues it: else it waits for the match's
        next move, the channel not told whose turn it is. Not with an older copy in memory
        (``before``), whose drop may be what failed: its delivery, still the match's here,
        would send it from that copy."""
        try:
            self.owners.adopt(live)
        except Exception:
            if before is None:
                # (Queued twice if ``adopt`` failed after queueing it: merged, sent once.)
                if live.unsent:
                    self.svc.delivery.enqueue(live, Batch(announce=True, table=True,
                                                          hands={0, 1}))
                if live.resend:
                    live.dm_shown = [None, None]
                    self.svc.delivery.enqueue(live, Batch.loads(live.resend))
            raise

    async def _held_elsewhere(self, match_id: int) -> bool:
        """Whether another process holds the match now (or it is gone). Unread, not known
        so: the copy is held as before (dropped at the next renewal if it is, reloaded at its
        next save if not)."""
        try:
            holder = await self.owners.leases.holder(match_id)
        except Exception as e:
            log.info("match %d: its holder could not be read (%s: %s)", match_id,
                     e.__class__.__name__, e)
            return False
        return holder != self.owners.name

    def _hands_owed(self, live: LiveMatch) -> None:
        """With the channel lost, no announcement is saved to deliver again: the panels
        telling the turn, or that the channel was lost, if they never went out, are sent now.
        And a seat whose refused DMs are owed their notice is delivered to (told, or asked
        about again: ``out_of_reach``)."""
        owed = owe_at_bring_in(live)
        if live.mid_turn and not live.unsent:
            # A move in the middle of a turn leaves nothing unsent, yet its holder may have
            # stopped before the mover's DM panel showed it: shown again (an edit, harmless
            # if it did), lest the panel offer a draw the match is past.
            owed.add(live.session.to_act)
        if not live.over and not live.channel_lost:
            # A refusal of the seat's DMs whose notice is owed (saved so: its player was out
            # of reach, ``out_of_reach``): asked about here now, the process that asked gone.
            owed |= {seat for seat in (0, 1) if live.dm_untold[seat] and live.dm_refused[seat]}
        if owed:
            self.svc.delivery.enqueue(live, Batch(hands=owed))

    def _question_owed(self, live: LiveMatch) -> None:
        """A time-up question no longer standing (withdrawn, the turn over) is still saved:
        its edit saying so was owed when its process stopped (Discord failing it, in memory
        alone: ``question_message.void_owed``). Made now, and it is forgotten."""
        if live.question and not stands(Question.loads(live.question), live):
            self.svc.delivery.enqueue(live, Batch(question=True))

    def _cancelled_if_unshown(self, c: Claimed, live: LiveMatch) -> None:
        """Never shown (its holder stopped before saving its table): cancelled, at once if it
        was this process's before a restart; another process's, a while later, as that
        process may have stalled rather than stopped, its table on the way."""
        self.svc.cancel_unshown_soon(live, 0.0 if c.previous == self.owners.name else 2 * LEASE)

    async def bring_in_again(self, now: float) -> None:
        """The matches claimed whose turn's resume is of unknown outcome, brought in again
        while still held here (their leases renewed meanwhile): the resume read back then
        (``clock.resume_after_downtime``). One failing again is kept, and tried again at the
        next tick."""
        for match_id in list(self.unsettled):
            try:
                await self.bring_in_unsettled(match_id)
            except Exception as e:
                self._could_not_take(match_id, e, now, "kept, brought in at the next check")

    async def bring_in_unsettled(self, match_id: int) -> None:
        """``bring_in_again`` of one match, if it is still to be brought in."""
        async with self._bringing:
            entry = self.unsettled.get(match_id)
            if entry is None:
                return  # brought in meanwhile
            # Not if claimed again meanwhile (its lease lapsed, renewals failing).
            if match_id not in self.svc.matches and \
                    await self.owners.leases.holder(match_id) == self.owners.name:
                await self._brought_in(*entry)
            else:
                self.svc.clock_state.resumed.pop(match_id, None)
            self.unsettled.pop(match_id, None)

    def _could_not_take(self, match_id: int, e: Exception, now: float,
                        then: str = "let go, to be claimed again") -> None:
        """Warned (``then``: what becomes of the match) at the first failure, then at most
        every ``WARN_AGAIN`` seconds with the count of failures since; between, at DEBUG.
        Failing for ever, said once at ERROR (``Stuck``)."""
        self.stuck.failed(match_id, e)
        failed, warned = self._failing.get(match_id, (0, -WARN_AGAIN))
        if now - warned < WARN_AGAIN:
            self._failing[match_id] = (failed + 1, warned)
            log.debug("match %d could not be taken over again (%s: %s)", match_id,
                      e.__class__.__name__, e)
            return
        self._failing[match_id] = (0, now)
        since = f" ({failed} more time(s) since the last warning)" if failed else ""
        log.warning("match %d could not be taken over (%s: %s); %s%s", match_id,
                    e.__class__.__name__, e, then, since)

    async def _let_go(self, claimed: list[Claimed], now: float,
                      until: float | None = None) -> None:
        """Undo claims made at ``now``, leased until ``until`` (as claimed, unless renewed
        since); if that fails too, the leases are not renewed (``renew`` extends only the
        matches in memory), so they lapse and are claimed again all the same."""
        for c in claimed:
            try:
                await self.owners.leases.unclaim(c, now + LEASE if until is None else until, now)
            except Exception as e:
                log.warning("match %d: its claim could not be undone (%s: %s); its lease "
                            "lapses", c.match_id, e.__class__.__name__, e)

    def _kept_here(self, c: Claimed) -> bool:
        """``c`` is this process's own, lapsed (its renewals failing a while) and claimed back
        while in memory: its clock ran all along, and the copy in memory is the match as
        saved. Neither given a downtime nor brought in again."""
        return c.previous == self.owners.name and c.match_id in self.svc.matches

    async def _stopped_at(self, reads: Reads, claimed: list[Claimed], *,
                          now: float) -> dict[int, Stood]:
        """For each match about to be claimed with a clock running (``Leases.claim``, whose
        transaction ``reads`` is), since when its turn has stood still: since its process was
        last known alive (its last heartbeat, or its last renewal of the lease if later;
        unknown: now, no time given back); and the time that process noted its turn owed then
        (a give-back whose save failed, if on the deadline claimed)."""
        notes: dict[str, tuple[Notes, Owed]] = {}
        downs = {}
        for c in claimed:
            if c.deadline is None or self._kept_here(c):
                continue
            if c.stood is not None:
                # Claimed before, that bring-in failing: the downtime saved then, whatever its
                # holder's notes say now (this process's, rewritten at its start).
                downs[c.match_id] = (min(c.stood[0], now), c.stood[1])
                continue
            if c.previous not in notes:
                notes[c.previous] = await notes_in(reads, c.previous)
            (noted, owed) = notes[c.previous]
            at, still = last_alive(noted[0])
            since = None
            if still:
                # Its own turn's standing still, by its holder's notes by match: a turn begun
                # during that process's outage (or as it connected) from then, not from the
                # outage's start; one noted running (begun since its last check, or its
                # deadline paid since) ran till that process stopped.
                since, by_match = turn_still(noted, c.match_id, c.deadline)
                still = since is not None or not by_match
            # A process cut off from Discord renewed its leases with its clocks standing still.
            renewed = c.lease_until - LEASE if c.lease_until > 0 and not still else None
            known = [t for t in (at if since is None else since, renewed) if t is not None]
            stopped = min(max(known), now) if known else now
            downs[c.match_id] = (stopped, owed_on(owed.get(c.match_id), c.deadline))
        return downs


def down_of(c: Claimed, now: float) -> Down:
    """The downtime a claim saved (``Claimed.stood``) as a resume takes it
    (``resume_after_downtime``); none for a match with no clock running. Time owed by the turn
    (a step back of the clock, ``steps``) is taken as time owed to it is given."""
    if c.stood is None or c.deadline is None:
        return now, {}
    since, gap = c.stood
    return since, {c.match_id: (c.deadline, gap)} if gap != 0 else {}
