"""A practice hand's review on its way to the player's DM (``cogs.umtali.coach``): sent,
then saved as sent (``coach_review.send_review``); failing for now (Discord's 5xx, the
network), sent again a few times over some minutes in a task of its own, then dropped, while
the next hand's review goes out when due. The part of ``Coach`` that sends; the thinking is
the coach's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import NamedTuple
from weakref import ref

import discord

from cogs.umtali.coach_review import send_review
from cogs.umtali.coach_work import Lesson
from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch

log = logging.getLogger(__name__)

#: Seconds before each new try of a review whose DM failed for now (Discord's 5xx, the
#: network): a few minutes in all, within which Discord still knows the review's nonce (one
#: posted with its answer lost is given back, not posted twice). Then it is dropped.
SEND_AGAIN_AFTER = (5.0, 30.0, 120.0)


class Owed(NamedTuple):
    """A practice hand's review not sent yet: the hand (game, number), the hands ended with
    it, and what was found (None: still to think of)."""

    live: LiveMatch
    hand: tuple[int, int]
    finished: int
    found: list[Lesson] | None = None


class ReviewDelivery:
    """The sending of a coach's reviews (``Coach``)."""

    #: Reviews sent (tests).
    sent: int
    _client: ref[discord.Client]
    #: Reviews waiting to be sent again (``_send_again``), each a task of its own.
    _again: dict[asyncio.Task[None], Owed]

    @property
    def client(self) -> discord.Client:
        """The coach's bot: alive while its coach is in use (the bot holds its coach's hand
        listener, and is what runs the hints and reviews)."""
        client = self._client()
        if client is None:
            raise RuntimeError("the coach's bot is gone")
        return client

    async def _handed(self, review: Owed, found: list[Lesson]) -> None:
        live = review.live
        assert live.computer_seat is not None
        try:
            await self._deliver(live, 1 - live.computer_seat, review.hand, found,
                                review.finished)
        except Exception as e:
            log.warning("match %d: the review of a hand failed (%r)", live.id, e)

    def _again_later(self, review: Owed, work: Coroutine[object, object, None]) -> None:
        """``work``, sending ``review`` later, in a task of its own."""
        task = asyncio.create_task(work, name=f"umtali-review-again-{review.live.id}")
        self._again[task] = review
        task.add_done_callback(lambda t: self._again.pop(t, None))
        # Cancelled before it began (closed), ``work`` was never awaited: closed.
        task.add_done_callback(lambda _: work.close())

    async def _deliver(self, live: LiveMatch, seat: int, hand: tuple[int, int],
                       found: list[Lesson], finished: int) -> None:
        """The review sent; failing for now, sent again a while later in a task of its own
        (``_send_again``): the next hand's review is thought of and sent when due meanwhile,
        not held back behind this one's waits."""
        try:
            await self._send(live, seat, hand, found, finished)
        except PASSING as e:
            self._again_later(Owed(live, hand, finished, found),
                              self._send_again(live, seat, hand, found, finished, e))

    async def _send_again(self, live: LiveMatch, seat: int, hand: tuple[int, int],
                          found: list[Lesson], finished: int, failed: Exception) -> None:
        """Tried again after each wait of ``SEND_AGAIN_AFTER`` while it fails for now, then
        dropped. Dropped too once a later hand's review was sent, saved as sent or not (here,
        ``_send`` cancels it; elsewhere, the saved ``reviewed`` says so): the player has read
        on, and an older review arriving under the newer one reads as out of order (and as
        sent, the match saves only its latest). ``_send`` checks again each time whether it
        was sent meanwhile."""
        try:
            for wait in (*SEND_AGAIN_AFTER, None):
                if wait is None:
                    log.warning("match %d: the review could not be sent (%s: %s); dropped",
                                live.id, failed.__class__.__name__, failed)
                    return
                log.info("match %d: the review could not be sent for now (%s: %s); tried "
                         "again in %g s", live.id, failed.__class__.__name__, failed, wait)
                await asyncio.sleep(wait)
                client = self._client()
                if live.reviewed >= finished or client is None or client.is_closed():
                    log.info("match %d: the review of hand %d was not sent; a later one was, "
                             "or the bot stopped", live.id, hand[1])
                    return
                try:
                    await self._send(live, seat, hand, found, finished)
                    return
                except PASSING as e:
                    failed = e
        except Exception as e:
            log.warning("match %d: the review of a hand failed (%r)", live.id, e)

    async def _send(self, live: LiveMatch, seat: int, hand: tuple[int, int],
                    found: list[Lesson], finished: int) -> None:
        """The review in the seat's DM, then saved as sent (``coach_review.send_review``).
        Sent, the match's earlier reviews still waiting to be sent again are dropped, even
        if its save failed (``_send_again``)."""
        if not await send_review(self.client, live, seat, hand, found, finished):
            return
        self.sent += 1
        for task, owed in list(self._again.items()):
            if owed.live.id == live.id and owed.finished < finished and \
                    task is not asyncio.current_task():
                del self._again[task]
                task.cancel()
                log.info("match %d: the review of hand %d was not sent; a later one was",
                         live.id, owed.hand[1])
