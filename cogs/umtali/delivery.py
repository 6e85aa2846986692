"""Delivery to Discord: what a match must still tell, sent in order by one worker per match.

Actions never wait on Discord's REST API: they queue a ``Batch`` and return. Each destination
(the match's channel with its announcements and table, each player's DM) is delivered on its
own, so one that fails holds up none of the others. A failure that may pass (a 5xx, a lost
connection, the database) is tried again a little later, then further apart, for about an hour
(``TRIES``), what waits for it saved (``matches.resend``). A channel that refuses the bot for
good (deleted, locked, permission removed), or still fails after that hour (a gateway outage
not counted), is marked lost (``cogs.umtali.channel_loss``). A DM still failing then (an
outage not counted either) waits for the match's next delivery. A failure of another kind
(the database, a bug) still failing then lets the match go from memory, to be claimed again
from the database as a stopped process's match is (``cogs.umtali.owners``).

A batch is sent in ``cogs.umtali.sending``. What goes where: the channel's posts in
``cogs.umtali.posting``, a player's DM panel in ``cogs.umtali.in_dms``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import TYPE_CHECKING

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.overtaken import overtaken
from cogs.umtali.sending import Hold, Sending, let_go
from cogs.umtali.session_end import end_owed
from cogs.umtali.stray_panels import replaced_meanwhile

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Seconds the check of a batch's DM edits is given as the bot stops (a read, and perhaps a
#: Discord edit): the whole stop stays within ``docker stop``'s 10 s (README, Stopping).
CHECK_AT_STOP = 1.0


class Delivery(Sending):
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self._queues: dict[int, Batch] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        #: Every worker still running, by match: one no longer the match's (its copy dropped,
        #: or handed over) may still hand the match to a fresh copy's (``overtaken``).
        self._running: dict[int, set[asyncio.Task[None]]] = {}
        self._idle: dict[int, asyncio.Event] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        #: What each pending retry will send: a later failure joins it, cancelling nothing.
        self._retrying: dict[int, Batch] = {}
        self._backoff: dict[int, float] = {}
        #: Failures in a row other than Discord's, by match.
        self._failures: dict[int, int] = {}
        #: Failed tries in a row of Discord's that may pass, by match and place ("its channel",
        #: a seat's hand).
        self._tries: dict[int, dict[str, int]] = {}
        #: Stopping: nothing new is sent (what is unsent is saved, and goes out at next start).
        self._closed = False
        #: The copies whose delivery under way began held here, by match (``began_held``).
        self._began_held: dict[int, LiveMatch] = {}
        #: The DM panels the batch under way edited, by match: the copy, and by seat the DM
        #: and the message (``edited``).
        self._edited: dict[int, tuple[LiveMatch, dict[int, tuple[int, int]]]] = {}
        #: Announcements held for the computer's reply, by match: until when, and the hold
        #: (``Sending._held_for_computer``).
        self._holding: dict[int, Hold] = {}

    # -- the queue ------------------------------------------------------------------------

    def enqueue(self, live: LiveMatch, batch: Batch) -> None:
        if self._closed:
            return
        queued = self._queues.setdefault(live.id, Batch())
        queued.merge(batch)
        self._idle.setdefault(live.id, asyncio.Event()).clear()
        worker = self._workers.get(live.id)
        if worker is None or worker.done():
            worker = self._workers[live.id] = asyncio.create_task(self._run(live))
            self._running.setdefault(live.id, set()).add(worker)
            worker.add_done_callback(functools.partial(self._ended, live.id))

    def _ended(self, match_id: int, worker: asyncio.Task[None]) -> None:
        running = self._running.get(match_id, set())
        running.discard(worker)
        if not running:
            self._running.pop(match_id, None)

    @property
    def closed(self) -> bool:
        return self._closed

    def hand_over(self, live: LiveMatch, fresh: LiveMatch, batch: Batch) -> None:
        """``fresh`` sends the match from now on, ``batch`` first, in place of ``live`` whose
        worker this is: it ends (``cogs.umtali.overtaken``)."""
        if self._workers.get(live.id) is asyncio.current_task():
            del self._workers[live.id]
        self.enqueue(fresh, batch)

    async def flush(self, match_id: int | None = None) -> None:
        """Wait until everything queued has been sent (tests, shutdown), by the workers that
        ended their match's queue too (what they hand over is sent)."""
        while True:
            ids = [match_id] if match_id is not None else list(self._idle)
            for i in ids:
                idle = self._idle.get(i)
                if idle is not None:
                    await idle.wait()
            ending = {task for i in ([match_id] if match_id is not None else
                                     list(self._running))
                      for task in self._running.get(i, ())
                      if task is not asyncio.current_task() and not task.done()}
            if not ending:
                return
            await asyncio.wait(ending)

    def forget(self, match_id: int) -> None:
        """Free what a finished match kept here (its worker is ending, or has ended)."""
        self._queues.pop(match_id, None)
        self._workers.pop(match_id, None)
        self._backoff.pop(match_id, None)
        self._failures.pop(match_id, None)
        self._tries.pop(match_id, None)
        self._retrying.pop(match_id, None)
        self._edited.pop(match_id, None)
        let_go(self._holding, match_id)
        idle = self._idle.pop(match_id, None)
        if idle is not None:
            idle.set()
        retry = self._retries.pop(match_id, None)
        if retry is not None:
            retry.cancel()

    def moved(self, live: LiveMatch) -> None:
        """The match is in another channel now (``/umtali table``): the failed tries counted
        are the old channel's."""
        self._tried(live, "its channel", None)

    def edited(self, live: LiveMatch, seat: int, channel_id: int, message_id: int) -> bool:
        """The seat's DM panel ``message_id`` (in the DM ``channel_id``) was edited from
        ``live``: whether by the match's batch under way, whose read of the match as saved once
        it is out finds a newer panel saved meanwhile (``edits``; ``overtaken``), rather than
        a read after each edit (``stray_panels.replaced_after_edit``): one for every move."""
        if self._workers.get(live.id) is not asyncio.current_task():
            return False
        copy, edits = self._edited.setdefault(live.id, (live, {}))
        if copy is not live:
            return False
        edits[seat] = (channel_id, message_id)
        return True

    def replaced_here(self, live: LiveMatch, seat: int) -> None:
        """A new panel of the seat's sent from ``live`` and saved: it took the buttons off the
        one it replaced, edited earlier in the batch perhaps (``edited``), which is no longer
        to check (the panel saved is this copy's own)."""
        edited = self._edited.get(live.id)
        if edited is not None and edited[0] is live:
            edited[1].pop(seat, None)

    def edits(self, live: LiveMatch) -> dict[int, tuple[int, int]]:
        """The DM panels the batch under way edited from ``live`` (``edited``), forgotten:
        checked by the caller against the panels as saved."""
        copy, edits = self._edited.pop(live.id, (live, {}))
        return edits if copy is live else {}

    async def _check_edits(self, live: LiveMatch) -> None:
        """The DM panels the batch edited, left unchecked (the batch failed, the read after
        it did, or the bot is stopping): checked against the panels as saved."""
        edits = self.edits(live)
        if not edits:
            return
        try:
            saved = await self.service.owners.leases.shown(live.id)
        except Exception as e:  # the next delivery's check finds it
            log.info("match %d: its panels as saved could not be read (%s: %s)", live.id,
                     e.__class__.__name__, e)
            return
        if saved is not None:
            for seat, (channel, message) in edits.items():
                await replaced_meanwhile(self.service, live, seat, channel, message,
                                         saved.panels[seat])

    async def _edits_at_stop(self, live: LiveMatch) -> None:
        """``_check_edits`` as the bot stops, its batch cut short: whatever fails (Discord or
        the database closing) is left, the stop going on."""
        try:
            # Bounded: Discord slow (a call given up after 30 s) must not hold the stop up.
            await asyncio.wait_for(self._check_edits(live), CHECK_AT_STOP)
        except Exception as e:
            log.info("match %d: the panels its batch edited could not be checked as the bot "
                     "stops (%s: %s)", live.id, e.__class__.__name__, e)

    def began_held(self, live: LiveMatch) -> bool:
        """``live``'s delivery under way began with the copy held here: dropped since (another
        process took the match as it went out), what it tells may be owed all the same."""
        return self._began_held.get(live.id) is live

    def retrying(self, match_id: int) -> bool:
        """Something of the match waits to be tried again (Discord failed it for now)."""
        return match_id in self._retrying

    def tracked(self, match_id: int) -> bool:
        return any(match_id in d for d in (self._queues, self._workers, self._idle,
                                           self._retries, self._retrying, self._backoff,
                                           self._failures, self._tries))

    async def close(self) -> None:
        self._closed = True
        for retry in self._retries.values():
            retry.cancel()
        for match_id in list(self._holding):  # (a held turn stays saved as unsent)
            let_go(self._holding, match_id)
        # (a copy: a worker ending meanwhile leaves the dict, one overtaken hands it over)
        # All cancelled first: each checks its edits as it ends (``_edits_at_stop``), at once.
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        for task in workers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, live: LiveMatch) -> None:
        while True:
            if self._workers.get(live.id) is not asyncio.current_task():
                return  # forgotten (another process holds the match now): not ours to send
            held = self.service.matches.get(live.id)
            if held is not None and held is not live:
                # This process took the match since, with a copy of its own (an action here
                # as this copy, not held, was shown): what is queued is that copy's. Sent from
                # this one, its announcements would go unposted (this copy's are older).
                self.hand_over(live, held, Batch())
                return
            batch = self._queues.pop(live.id, None)
            if batch is None or batch.empty:
                self._idle[live.id].set()
                if live.id not in self._retrying and (
                        (live.over and not live.unsent) or held is None):
                    # Finished, or a copy not held here (shown as saved, a member's choice
                    # made through this process): nothing of it kept, its holder sends on.
                    self.service.forget(live)
                return
            if held is live:
                self._began_held[live.id] = live
            self._edited.pop(live.id, None)
            try:
                again, sent = await self._send(live, batch)
                if sent is not None:
                    await overtaken(self, live, batch, sent)
            except asyncio.CancelledError:
                # The bot stopping (``close``) cut the batch short: the DM panels it edited are
                # checked all the same, as each edit's own read checked them.
                await self._edits_at_stop(live)
                raise
            except Exception as e:
                if self._closed or self.client.is_closed():
                    # Stopping: what was not sent is still saved, and goes out at the next start.
                    log.info("match %d: sending cut short by the bot stopping (%s)", live.id, e)
                    await self._edits_at_stop(live)
                    return
                again = self._failed(live, batch, e)
            else:
                self._failures.pop(live.id, None)
            finally:
                if self._began_held.get(live.id) is live:
                    del self._began_held[live.id]
            await self._check_edits(live)
            if again.empty:
                self._backoff.pop(live.id, None)
            else:
                self._retry(live, again)
            await self._owe(live)

    async def _owe(self, live: LiveMatch) -> None:
        """What waits for a retry saved (``matches.resend``), or nothing once all is sent: a
        restart before the retry, or another process taking the match, sends it. Written on
        failures and their recovery alone. A failure to save is left to the retry in memory."""
        if self._retrying.get(live.id) is None and not live.resend:
            return  # (nothing owed, nothing to write: a move's delivery)
        # Worked out and written under the lock: a match's end saved meanwhile (its end line,
        # and a lost channel's panels, owed in its save) was overwritten by what this worked
        # out before it (fix169).
        async with live.lock:
            await self._owe_locked(live)

    async def _owe_locked(self, live: LiveMatch) -> None:
        if self._closed or self.service.matches.get(live.id) is not live:
            # Let go (to be claimed again, sending what is saved) or replaced by a fresher
            # copy: its retry forgotten here is still owed, not sent.
            return
        waiting = self._retrying.get(live.id)
        batch = Batch()
        if waiting is not None or live.resend:
            # With what is queued: a retry come due while this worker sent something else
            # waits there, unsent (only while something is owed: no write for a move).
            batch.merge(waiting or Batch())
            batch.merge(self._queues.get(live.id) or Batch())
            # The end line, saved owed with the end, stays so until told: the batches here
            # need not say it (told with the final table, or queued behind this one).
            batch.ended |= end_owed(live)
        owed = batch.dumps()
        if owed == live.resend:
            return
        try:
            if await self.service.store.set_resend(live.id, owed, self.service.owners.name):
                live.resend = owed
        except Exception as e:
            log.info("match %d: what its delivery owes could not be saved (%s: %s)", live.id,
                     e.__class__.__name__, e)
