"""Tried again: what of a match's delivery failed for now, a little later, then further apart,
for about an hour (``TRIES``); the failures counted by place (the channel, a seat's DMs) and of
another kind (the database, a bug). The part of ``cogs.umtali.delivery.Delivery`` that keeps
count and schedules the tries; the sending is the delivery's.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from data.failing import failing_for_now

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

# The delivery's own logger: its lines keep the name they have always had (log filters).
log = logging.getLogger("cogs.umtali.delivery")

#: Seconds before a failure that may pass is tried again (doubling, up to RETRY_MAX).
RETRY_FIRST, RETRY_MAX = 5.0, 120.0
#: Failures of another kind in a row (the database, a bug) after which it is logged as an
#: error; they are tried again all the same, as Discord's are, up to ``TRIES``.
FAILURES_LOGGED = 8
#: Tries in a row at one place (the channel, a player's DMs, the whole batch) after which a
#: failure is taken as lasting: about an hour, at RETRY_FIRST doubling up to RETRY_MAX. Not
#: tried for ever: a channel failing that long holds the match up (nobody sees the turn), and
#: a match that is over would be kept in memory for nothing.
TRIES = 32


class Retries(ABC):
    service: MatchService
    _retries: dict[int, asyncio.TimerHandle]
    #: What each pending retry will send: a later failure joins it, cancelling nothing.
    _retrying: dict[int, Batch]
    _backoff: dict[int, float]
    #: Failures in a row other than Discord's, by match.
    _failures: dict[int, int]
    #: Failed tries in a row of Discord's that may pass, by match and place ("its channel",
    #: a seat's hand).
    _tries: dict[int, dict[str, int]]

    @abstractmethod
    def enqueue(self, live: LiveMatch, batch: Batch) -> None: ...

    def _failed(self, live: LiveMatch, batch: Batch, error: Exception) -> Batch:
        """What to try again after ``error``. A failure other than Discord's (the database,
        say): the whole batch, later, each part being safe to send twice (announcements are
        read from the database and carry their nonce; the table and hands are edits, or
        skipped once shown)."""
        if isinstance(error, discord.HTTPException) and error.status != 429:
            # Discord refused what we sent (a 400): a bug of ours, which would fail again. (A
            # 429 still there after discord.py's own five tries is Discord's limit, for now:
            # tried again later, as the database's failures are.)
            log.error("match %d: Discord refused what was sent", live.id, exc_info=error)
            return Batch()
        failures = self._failures[live.id] = self._failures.get(live.id, 0) + 1
        if failures >= TRIES:
            # The database or a bug, for an hour: the match is let go from memory, as a stopped
            # process's is. Its lease lapses, and it is claimed again from the database (here or
            # by another process, once the database answers), which sends what it has to say.
            log.error("match %d: sending has failed %d times in a row; let go, to be claimed "
                      "again", live.id, failures, exc_info=error)
            self.service.forget(live)
            return Batch()
        if failures == FAILURES_LOGGED:
            log.error("match %d: sending has failed %d times in a row; still trying",
                      live.id, failures, exc_info=error)
        else:
            # The first one's traceback, unless it is the database busy or out of reach
            # (``failing_for_now``), or Discord's limit, its 5xx or the way to it (soak seed
            # 1227: a 429 outlasting discord.py's tries): no bug to find there.
            log.log(logging.WARNING if failures == 1 else logging.INFO,
                    "match %d: sending failed (%s: %s; try %d); trying again later", live.id,
                    error.__class__.__name__, error, failures,
                    exc_info=failures == 1 and not _passing(error))
        return batch

    def _tried(self, live: LiveMatch, place: str, error: Exception | None) -> int:
        """Note a try at ``place``: its failed tries in a row, ``error`` the last one's
        (0: it succeeded). Only the first failure of a run is a warning."""
        tries = self._tries.setdefault(live.id, {})
        if error is None:
            tries.pop(place, None)
            if not tries:
                self._tries.pop(live.id, None)
            return 0
        count = tries[place] = tries.get(place, 0) + 1
        if count < TRIES:
            log.log(logging.WARNING if count == 1 else logging.INFO,
                    "match %d: sending to %s failed for now (%s: %s; try %d); trying again "
                    "later", live.id, place, error.__class__.__name__, error, count)
        return count

    def _retry(self, live: LiveMatch, batch: Batch) -> None:
        waiting = self._retrying.get(live.id)
        if waiting is not None:
            waiting.merge(batch)  # goes with the retry already waiting
            return
        delay = self._backoff.get(live.id, RETRY_FIRST)
        self._backoff[live.id] = min(delay * 2, RETRY_MAX)
        self._retrying[live.id] = batch
        self._retries[live.id] = asyncio.get_running_loop().call_later(delay, self._again, live)

    def retry_now(self) -> None:
        """The gateway is back after an outage: what waits for a retry (the pause grown to
        minutes while the network or Discord was down) is sent now, the pauses starting over;
        else a turn's announcement and panels could wait two minutes, its clock running."""
        for match_id, handle in list(self._retries.items()):
            live = self.service.matches.get(match_id)
            if live is None:
                continue  # not held here now: its retry finds that out
            handle.cancel()
            self._backoff.pop(match_id, None)
            self._again(live)

    def _again(self, live: LiveMatch) -> None:
        self._retries.pop(live.id, None)
        batch = self._retrying.pop(live.id, None)
        if batch is not None:
            self.enqueue(live, batch)

    def _hand_failed(self, live: LiveMatch, seat: int, error: Exception) -> bool:
        """Whether the seat's hand, failed for now, is to be tried again; after ``TRIES`` it
        waits for the match's next delivery (a DM failing for now is not refused: with the
        channel lost, that would abandon the match). Not counted during a gateway outage: with
        the channel lost, a player whose turn it is would be told only at the next move."""
        if self.service.clock_state.outage is not None:
            return True
        if self._tried(live, f"seat {seat}'s DMs", error) < TRIES:
            return True
        log.warning("match %d: the hand of seat %d has failed %d tries in a row (%s); not "
                    "tried again until the match's next delivery", live.id, seat, TRIES, error)
        return False


def _passing(error: BaseException) -> bool:
    """Whether ``error`` is something failing for now, no bug of ours: the database, Discord's
    rate limit or its server errors, the network."""
    return failing_for_now(error) or isinstance(error, PASSING) or (
        isinstance(error, discord.HTTPException) and (error.status == 429 or error.status >= 500))
