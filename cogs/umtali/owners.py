"""Which matches this process holds, when several processes share one database.

The database holds the truth; a process's ``MatchService.matches`` holds exactly the matches it
*holds* (``data.leases``): their timers run here, their announcements are posted from here,
their computer plays here. Any process may act on any match: a match held elsewhere is loaded
fresh for the action, and the action's save makes this process its holder (the other drops it
at its next renewal, or at once when it next touches it). Every few seconds the timer tick
renews this process's leases and claims the matches whose holder stopped renewing (killed;
``cogs.umtali.claims``): their turns get back the time lost, their unsent announcements are
posted, their computer resumes. A single process named ``main`` holds every match, as before
there were several. Each renewal also reads again what servers and members chose (a server's
language and pictures, a member's look, hand order and language) when another process changed
it (``catch_up``). Its copies of matches, as against the database: ``cogs.umtali.copies``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cogs.umtali import refused_here
from cogs.umtali.claims import LEASE, Claims
from cogs.umtali.clock_state import held_from, stepped, wrote
from cogs.umtali.copies import Copies
from cogs.umtali.db_outage import database_failed
from cogs.umtali.display import redraw_changed
from cogs.umtali.give_back import show_clock
from cogs.umtali.held_elsewhere import notes_before, owe_taken, still_again
from cogs.umtali.lasting import Lasting
from cogs.umtali.live import LiveMatch
from cogs.umtali.out_of_reach import ask_if_back
from cogs.umtali.outbox import Batch
from cogs.umtali.question_message import void_owed
from cogs.umtali.refused_here import known
from cogs.umtali.time_out import ask_again
from cogs.umtali.unheard import InDoubt, settled
from data.leases import Leases
from data.messages import ENDED_ALONE
from data.models import AsSaved
from data.store import StaleState

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Seconds between renewals (a third of the lease: two renewals may fail before it lapses).
RENEW_EVERY = 5.0
#: Seconds before a renewal that failed is tried again (the next tick), not a whole period
#: (nor more than one): the database busy a few seconds let the lease lapse after two tries;
#: nor at once by the tick and the task beside it, each waiting out the busy timeout.
RENEW_AGAIN = 1.0
#: Tries at taking a match that keeps moving on meanwhile (``Owners.hold``).
TAKE_TRIES = 5
#: Seconds a timer check may stay under way (a Discord call failing and tried again, and
#: again) before this process lets its leases lapse: its matches' turns are judged by nobody
#: while it lasts, and a process whose checks run should take them.
STUCK = 90.0


class Owners(Copies):
    def __init__(self, svc: MatchService, name: str) -> None:
        self.svc = svc
        self.name = name
        self.leases = Leases(svc.store.db, name)
        self._renewed_at: float | None = None
        #: When the last renewal that failed was tried, on the steady clock (None once one
        #: goes through).
        self._failed_at: float | None = None
        #: One renewal at a time: the tick's and the one beside it (``renew_beside``).
        self._renewing = asyncio.Lock()
        self._beside: asyncio.Task[None] | None = None
        #: The sweep the last renewal began beside it (``sweep``), one at a time.
        self.sweeping: asyncio.Task[None] | None = None
        self._stopped = False
        #: Before this moment of the steady clock, no match of another process is claimed
        #: (``hold_claims``).
        self._claims_from = 0.0
        #: When the timer check under way began (``checking``); None between checks.
        self.checking_since: float | None = None
        self._stuck_told = False
        self.claims = Claims(self)
        #: The renewals (the tick's, the one beside it) failing in a row: said once.
        self.renewal = Lasting(log, "the leases could not be renewed",
                               "the leases are renewed again")

    def until(self) -> float:
        return self.svc.clock() + LEASE

    # -- holding --------------------------------------------------------------------------

    async def claim(self, *, start: bool = False) -> list[LiveMatch]:
        """Take the matches nobody holds any more (at start, this process's own too), and
        bring them into play here; those brought in (``Claims``). None once stopping."""
        if self._stopped or (not start and (self.svc.ticks() < self._claims_from
                                             or stepped(self.svc))):
            return []
        return await self.claims.claim(start=start)

    def hold_claims(self, seconds: float) -> None:
        """Claim no lapsed match for ``seconds`` of the steady clock: after this process's
        clock stepped or it stood still that long, the leases of the others look lapsed
        until they too wake and renew them."""
        self._claims_from = max(self._claims_from, self.svc.ticks() + seconds)

    async def tick(self, now: float) -> bool:
        """Each timer tick: claim the matches whose process stopped, and mend the time-up
        questions (never asked, or owed an edit); every few seconds, renew the leases and drop
        the matches another process took (``renew``: here too, as a check after a pause must
        renew before it gives time back). Nothing once stopping: the stop cancels the timer
        loop without waiting for it, and a tick running on past the release would take the
        leases back, keeping another process from taking the matches at once. Whether the
        leases were renewed (not only read: SQLite locked by another writer lets reads go on)."""
        if self._stopped:
            return False
        renewed = await self.renew(now)
        await self.claims.bring_in_again(now)
        await self.claim()
        await ask_again(self.svc, now)
        await void_owed(self.svc)
        ask_if_back(self.svc)
        return renewed

    async def renew(self, now: float) -> bool:
        """Every ``RENEW_EVERY`` seconds: extend the leases of the matches held here, drop
        those another process took meanwhile, and read again what servers and members chose
        (``catch_up``); then free what is kept of matches over elsewhere (``sweep``, beside
        it). Once per period, whoever asks first (the tick, the task beside it): whether it
        was this call's. The period runs from a renewal saved: one that failed is tried again
        ``RENEW_AGAIN`` later."""
        async with self._renewing:
            if self._stopped:
                return False
            last, failed = self._renewed_at, self._failed_at
            if last is not None and last <= now < last + RENEW_EVERY:
                return False
            # (on the steady clock: ``now`` may have been read before a wait for the lock,
            # held by the renewal that failed)
            if failed is not None and self.svc.ticks() < failed + min(RENEW_AGAIN, RENEW_EVERY):
                return False
            held = dict(self.svc.matches)
            try:
                lost = await self.leases.renew(self.until(), held, self.claims.unsettled)
            except BaseException:
                self._failed_at = self.svc.ticks()
                raise
            self._renewed_at, self._failed_at = now, None
            for match_id in lost:
                live = held.get(match_id)
                if live is None:
                    # Claimed here, brought in by another process meanwhile.
                    self.claims.unsettled.pop(match_id, None)
                    self.svc.clock_state.resumed.pop(match_id, None)
                elif self.svc.matches.get(match_id) is live:
                    log.info("match %d: now held by another process", match_id)
                    self.drop(live)
            await self.catch_up()
        if not self._stopped and (changed := self.svc.prefs.take_changed()):
            # Drawn again out of the lock, beside it: the redraws read the database (each
            # match's holder, a panel's match), which may be busy; the renewals go on.
            self.svc.beside.start(redraw_changed(self.svc, changed), None,
                                  "redraw in a new look")
        if not self._stopped and (self.sweeping is None or self.sweeping.done()):
            # In a task of its own, out of the lock: its reads slow, the renewals go on.
            self.sweeping = asyncio.create_task(self.sweep(), name=f"{self.name}: sweep")
        return True

    async def sweep(self) -> None:
        """Free what this process keeps of matches it does not hold that are over as saved
        (ended through another process: this one never sees their end) or gone: the refusals
        of DMs its copies found (``refused_here``). One read, chunked; unread (the database
        failing), kept until the next renewal's."""
        kept = refused_here.kept(self.svc) - set(self.svc.matches)
        if not kept:
            return
        try:
            ended = kept - await self.leases.in_play(kept)
        except Exception as e:
            log.debug("whether %d match(es) are over could not be read (%s: %s)", len(kept),
                      e.__class__.__name__, e)
            return
        for match_id in ended:
            refused_here.forget(self.svc, match_id)

    @contextlib.contextmanager
    def checking(self, now: float) -> Iterator[None]:
        """A timer check is under way from ``now`` (``renew_beside`` watches how long)."""
        self.checking_since = now
        try:
            yield
        finally:
            self.checking_since = None

    def renew_beside(self, every: float) -> None:
        """Renew the leases in a task of their own, every ``every`` seconds: a timer check
        held up by Discord (each call may take its 30 s, and discord.py tries again) would
        otherwise let them lapse, and another process take matches this one plays on. Only
        while the checks go on: one under way for ``STUCK`` seconds lets them lapse."""
        if not self._stopped and (self._beside is None or self._beside.done()):
            self._beside = asyncio.create_task(self._renew_beside(every))

    async def stop_renewing(self) -> None:
        """No renewal from now on (before the leases are given up: one renewed after would
        keep another process from taking them at once)."""
        self._stopped = True
        for task in (self._beside, self.sweeping):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self._beside = self.sweeping = None
        async with self._renewing:
            pass  # a renewal of the tick's under way is over
        # A redraw such a renewal began beside it (``redraw_changed``) after the service
        # closed its tasks beside: closed too, the database about to close.
        await self.svc.beside.close()

    async def _renew_beside(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            now = self.svc.clock()
            since = self.checking_since
            if since is not None and now - since >= STUCK:
                if not self._stuck_told:
                    self._stuck_told = True
                    log.warning("the timer check has been under way for %.0f s; this "
                                "process's leases are left to lapse, for another process to "
                                "take its matches", now - since)
                continue
            if self._stuck_told:
                self._stuck_told = False
                log.info("the timer checks go on again; the leases are renewed")
            try:
                if await self.renew(now):
                    self.renewal.worked()
                    wrote(self.svc.clock_state, now)
            except Exception as e:
                self.renewal.failed(e)
                # The database failing, nor can a move be saved: the clocks stand still
                # (``db_outage``), here as at the check, which may not try while this has.
                database_failed(self.svc, now, e)

    async def catch_up(self) -> None:
        """What servers and members chose, read again where another process changed it: a
        match held here may be on a server whose admin's command, or have a player whose
        choice, reached another process (``Preferences.catch_up``)."""
        try:
            await self.svc.prefs.catch_up()
        except Exception as e:  # the leases are renewed and claimed all the same
            log.warning("what servers and members chose could not be read again (%s: %s); "
                        "trying at the next renewal", e.__class__.__name__, e)

    async def release(self) -> None:
        """Stopping cleanly: another process may take this one's matches at once."""
        await self.stop_renewing()
        await self.leases.release()

    def adopt(self, live: LiveMatch) -> None:
        """``live`` is held here from now on (claimed, or saved by an action here): kept in
        memory in place of any older copy, what it has to say posted, its computer playing."""
        old = self.svc.matches.get(live.id)
        if old is live:
            return
        if old is not None:
            self.drop(old)
        self.svc.matches[live.id] = live
        held_from(live, self.svc.clock())
        for seat in (0, 1):
            # A seat's DMs another copy here found refusing the bot (this one read before):
            # known to the copy held, whose every send and check reads its own (``refused_here``).
            known(self.svc, live, seat)
        # Taken from a holder whose clocks stood still, or that owed its turn time.
        owe_taken(self.svc, live)
        if live.unsent:
            # Saved before its holder stopped, never posted: post it now.
            self.svc.delivery.enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
        if live.resend:
            # Owed by a delivery that failed for now before its holder stopped (or let it go).
            live.dm_shown = [None, None]
            self.svc.delivery.enqueue(live, Batch.loads(live.resend))
        self.svc.computers.next(live)

    async def hold(self, live: LiveMatch) -> None:
        """Hold ``live`` before changing it in a way no version guards (a player acting on a
        match another process holds)."""
        if self.svc.matches.get(live.id) is live:
            return
        # Taken as this copy has it, else brought up to date first: held with a copy from
        # before another process's move, the new turn's clock would never run and that move's
        # announcement never be posted (its process leaves both to the holder).
        for _ in range(TAKE_TRIES):
            shown, was = AsSaved(), live.place
            before = await notes_before(self, live)
            if await self._take(live, shown):
                # (a panel its former holder saved since this copy was read is the seat's)
                if live.take_saved(shown, was):
                    self.svc.delivery.moved(live)
                if live.take_clock(shown):
                    still_again(live, before)
                    show_clock(self.svc, live)  # the table says when the turn ends now
                self.adopt(live)
                return
            await self.svc._reload(live)
        raise StaleState(f"match {live.id} kept moving on while being taken")

    async def _take(self, live: LiveMatch, shown: AsSaved) -> bool:
        """``Leases.take`` of ``live`` as this copy has it. Its answer lost, it is read back
        (``unheard``): found taken, it is held here; else the action fails. So too if the read
        fails: nothing of the action is saved yet (the player is not told it may have been),
        and the take, if it went through, is renewed by nobody: it lapses and is claimed again
        (``claim``)."""
        version, over = live.version, live.over
        try:
            return await settled(f"match {live.id}: taken", self.leases.take(
                live.id, self.until(), version, over, shown),
                lambda: self.leases.taken_here(live.id, version, over))
        except InDoubt as e:
            assert e.__cause__ is not None
            raise e.__cause__ from None

    # -- announcements --------------------------------------------------------------------

    async def to_announce(self, live: LiveMatch) -> tuple[list[str], int] | None:
        """The match's unsent announcements as the database has them, and how many were posted
        before them; None if another process holds the match now (it posts them)."""
        async with live.lock:
            box = await self.leases.outbox(live.id)
            if box is None or box.owner != self.name:
                self.drop(live)
                return None
            live.unsent = box.unsent
            return box.unsent, box.announced

    async def posted(self, live: LiveMatch, texts: list[str], announced: int) -> None:
        """``texts``, the first unsent announcements, are posted: forget them, in memory and
        in the database (unless another process posted them first). Under the lock: a move
        being saved holds the list it is saving, and a write of ours in between would drop its
        announcement from the database."""
        async with live.lock:
            # The end line told (before the announcements: ``Sending._send``), its owe, saved
            # alone with the end, is paid in this write rather than one of its own (fix169):
            # a session's end writes nothing more than its save and its posts.
            told = ENDED_ALONE if live.end_done else ""
            live.unsent = await self.leases.posted(live.id, texts, announced, told)
            if told and live.resend == told:
                live.resend = ""
