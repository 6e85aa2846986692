"""The coach of practice sessions on Discord: the **Hint** button's answer (the button itself:
``cogs.umtali.coach_hint``), and after each hand a short review in the player's DM.

Both read only the practice player's own views (``cogs.umtali.coach_work``) and think in the
computer's worker pool (``cogs.umtali.thinking``), never on the event loop. Neither can hurt the
match: a review that fails (workers dying, the bot stopping) is logged at WARNING at most
and skipped (refused by DMs the player closed, the seat is taken for closed, as a refused
panel makes it; failing for now, a 5xx or the network, it is sent again a few times over
some minutes first, while the next hand's review goes out when due: the sending is
``cogs.umtali.coach_delivery``'s); a hint that fails says so to the player alone. Rated
matches have no coach: their panels offer no Hint, and a click forged for one is refused.

The coach closes with the bot (its service's close) and with the extension (unloaded or
reloaded, ``cogs.umtali.teardown``): what it has under way is cancelled, quietly. Its hints
are given up sooner, as a stop begins (``InFlight.giving_up``): their clicks answer at once
that the bot is restarting, and the stop does not wait for their searches. A reload
hands the reviews not sent yet to the coach loaded next (``Owed``): the module imported anew
makes a coach of its own, which would see such a hand again only at the match's next hands
sent, never for a match that is over (its last hand).
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary, ref

import discord

from cogs.umtali.access import service
from cogs.umtali.coach_delivery import Owed as Owed
from cogs.umtali.coach_delivery import ReviewDelivery
from cogs.umtali.coach_review import review_text as review_text
from cogs.umtali.coach_work import (
    HARD_BUDGET,
    advise,
    last_hand_pending,
    lessons,
    seat_record,
)
from cogs.umtali.in_flight import in_flight
from cogs.umtali.live import LiveMatch
from cogs.umtali.thinking import Unavailable
from umtali.ai.coach import REVIEW_BUDGET, Hint
from umtali.ai.resume import dealt_view, player_seed, seat_history
from umtali.session import Session

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Finished practice matches remembered as reviewed (``Coach._ended``).
ENDED_KEPT = 4096
#: Hints kept, latest last: one a practice match at most, and a match that went to another
#: process (or whose end this process never saw) is not forgotten otherwise.
HINTS_KEPT = 1024


class Closing(RuntimeError):
    """The coach closed, or the bot began to stop, before the hint was worked out."""


class Coach(ReviewDelivery):
    """One bot's coach: the hints under way, and the hands waiting for their review."""

    #: Playout moves spent judging each questioned move of a review, and ``hard``'s own
    #: search of each decision: some seconds a hand in all, in a worker (tests spend less).
    budget = REVIEW_BUDGET
    search = HARD_BUDGET

    def __init__(self, client: discord.Client) -> None:
        # Weakly: the coach is the value of ``_COACHES``, keyed weakly by this bot, and a value
        # holding its key keeps it for good (every test bot of a process, each with its service).
        self._client = ref(client)
        #: Reviews sent (tests).
        self.sent = 0
        #: Each match's hint for the position it is at (version): clicked twice, thought once.
        self._hints: dict[int, tuple[int, asyncio.Future[Hint]]] = {}
        #: Hands each practice match had finished when last looked at, by the copy held here:
        #: a match loaded anew (a restart, or back from another process) is first seen again,
        #: and a copy let go of is forgotten with it.
        self._finished: WeakKeyDictionary[LiveMatch, int] = WeakKeyDictionary()
        #: Practice matches seen over, latest last (a few thousand at most): their hands
        #: sent again later are not a hand to review again.
        self._ended: dict[int, None] = {}
        #: The last finished hand of each match not reviewed yet: should hands end faster
        #: than they are reviewed, the older one is skipped.
        self._due: dict[int, Owed] = {}
        self._reviewing: dict[int, asyncio.Task[None]] = {}
        #: The review each ``_reviewing`` task is on (thinking, or sending).
        self._current: dict[int, Owed] = {}
        #: Reviews waiting to be sent again (``_send_again``), each a task of its own.
        self._again: dict[asyncio.Task[None], Owed] = {}
        #: Closed (``close``): nothing more is reviewed, or sent.
        self._closed = False
        #: The bot stopping (``give_up_hints``): no more hints.
        self._hints_off = False
        #: The service whose hands it hears (``load_coach``).
        self._loaded_on: MatchService | None = None
        #: One review thinks at a time, bot-wide: with two workers, one is always free for
        #: the computer's moves.
        self._one = asyncio.Lock()

    # -- hints ----------------------------------------------------------------------------

    async def hint(self, live: LiveMatch, seat: int, session: Session | None = None) -> Hint:
        """``hard``'s move for the seat on ``session`` (the match's position as it is, if not
        given: the one its asker checked is, as moves may land while the hint is asked), and
        why."""
        if self._closed or self._hints_off:
            raise Closing("the coach is closed")
        session = live.session if session is None else session
        version = len(session.moves)
        known = self._hints.get(live.id)
        if known is None or known[0] != version:
            known = version, asyncio.ensure_future(self._advise(session, seat))
            self._hints.pop(live.id, None)
            self._hints[live.id] = known
            while len(self._hints) > HINTS_KEPT:
                # The oldest goes (a click waiting on it still gets it: only the cache forgets).
                del self._hints[next(iter(self._hints))]
        try:
            return await asyncio.shield(known[1])
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if known[1].cancelled() and (task is None or not task.cancelling()):
                raise Closing("the hint was given up") from None  # (this task goes on)
            raise
        except Exception:
            if self._hints.get(live.id) is known:
                del self._hints[live.id]  # the next click tries again
            raise

    def give_up_hints(self) -> None:
        """The bot begins to stop (or the coach closes): the hints under way are cancelled,
        their askers told ``Closing``, and none is asked any more. A search already in a
        worker runs out there (a second at most, which the pool's close waits for)."""
        self._hints_off = True
        hints, self._hints = self._hints, {}
        for _, thinking in hints.values():
            thinking.cancel()

    async def _advise(self, session: Session, seat: int) -> Hint:
        view = session.view(seat)
        # Replaying the hand takes milliseconds (the engine); the search, the worker's.
        history = await asyncio.to_thread(lambda: list(seat_history(session, seat)))
        # The pile as dealt too: the opponent may have taken its upcard before the seat's turn.
        dealt = await asyncio.to_thread(dealt_view, session, seat)
        seed = player_seed(session, seat)
        thinking = service(self.client).computers.thinking
        return await thinking.run(advise, seed, history, view, dealt,
                                  here=partial(advise, seed, history, view, dealt))

    # -- reviews --------------------------------------------------------------------------

    async def hands_sent(self, live: LiveMatch) -> None:
        """The players' hands were sent anew: if a practice hand ended, review it."""
        if live.computer_seat is None or self._closed:
            return
        session = live.session
        finished = len(session.hand_log)
        seen = self._finished.get(live)
        self._finished[live] = finished
        if live.over:
            self._finished.pop(live, None)
            self._hints.pop(live.id, None)
            if live.id in self._ended:
                return  # its hands sent again (a retry): its last hand is reviewed already
            self._ended[live.id] = None
            while len(self._ended) > ENDED_KEPT:
                del self._ended[next(iter(self._ended))]
        if finished <= live.reviewed:
            return  # its review was sent (here before a restart, or by another process)
        if seen is None:
            # First seen here (a new session, a restart, or the match came from another
            # process): its last hand is still to review, its moves from before the restart
            # included, unless its review was saved as sent. A match from before that was
            # saved (-1): only if the player has not acted since that hand ended.
            seat = 1 - live.computer_seat
            if not finished or (live.reviewed < 0 and not await asyncio.to_thread(
                    last_hand_pending, session, seat)):
                return
            seen = finished - 1
        if finished <= seen:
            return
        game, hand = session.hand_log[-1][:2]
        self._due[live.id] = Owed(live, (game, hand), finished)
        self._start_review(live)

    def _start_review(self, live: LiveMatch) -> None:
        task = self._reviewing.get(live.id)
        if task is None or task.done():
            self._reviewing[live.id] = asyncio.create_task(
                self._review(live), name=f"umtali-review-{live.id}")

    async def idle(self) -> None:
        """Wait until no review is under way (tests)."""
        while any(not t.done() for t in (*self._reviewing.values(), *self._again)):
            await asyncio.gather(*self._reviewing.values(), *self._again,
                                 return_exceptions=True)

    async def close(self, hand_over: bool = False) -> None:
        """No more reviews: those under way and those waiting to be sent again are cancelled
        and waited for, and the coach hears no more hands. ``hand_over`` (the extension
        reloaded, or unloaded): the reviews not sent are left on the service for the coach
        loaded next (``take_over``); else (the bot stopping) dropped: a restart reviews a
        match's last hand again if not saved as sent. Once; quietly (INFO)."""
        if self._closed:
            return
        self._closed = True
        self.give_up_hints()
        client = self._client()
        record = in_flight(client) if client is not None else None
        if record is not None and self.give_up_hints in record.giving_up:
            record.giving_up.remove(self.give_up_hints)
        svc = self._loaded_on
        if svc is not None:
            if self.hands_sent in svc.hand_listeners:
                svc.hand_listeners.remove(self.hands_sent)
            if self.close in svc.closing:
                svc.closing.remove(self.close)
        # What is owed, taken before the cancellations (a task cancelled before it began
        # never runs a line of its own).
        owed = [*self._again.values(), *self._current.values(), *self._due.values()]
        tasks = [*self._reviewing.values(), *self._again]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for review in owed:
            if hand_over and svc is not None:
                svc.reviews_left.append(review)
                log.info("match %d: the review of hand %d is left to the coach loaded next",
                         review.live.id, review.hand[1])
            else:
                log.info("match %d: the review of hand %d was not sent: the bot stopped",
                         review.live.id, review.hand[1])

    def take_over(self, svc: MatchService) -> None:
        """At load: the reviews a coach closed before left unsent (a reload), sent from here:
        thought of again if it had not yet, else sent at once."""
        left, svc.reviews_left[:] = list(svc.reviews_left), []
        for review in left:
            live = review.live
            self._finished[live] = max(self._finished.get(live, 0), review.finished)
            if review.found is None:
                due = self._due.get(live.id)
                if due is None or due.finished < review.finished:
                    self._due[live.id] = review
                self._start_review(live)
            else:
                self._again_later(review, self._handed(review, review.found))

    async def _review(self, live: LiveMatch) -> None:
        assert live.computer_seat is not None
        seat = 1 - live.computer_seat
        try:
            while (due := self._due.pop(live.id, None)) is not None:
                hand, finished = due.hand, due.finished
                self._current[live.id] = due
                async with self._one:
                    session = live.session
                    record = await asyncio.to_thread(seat_record, session, seat, hand)
                    if not record:
                        continue  # the seat never had to choose
                    dealt = await asyncio.to_thread(dealt_view, session, seat, hand)
                    found = await service(self.client).computers.thinking.run(
                        lessons, record, player_seed(session, seat), self.budget, self.search,
                        3, dealt)
                self._current[live.id] = due._replace(found=found)
                await self._deliver(live, seat, hand, found, finished)
        except Unavailable as e:
            log.warning("match %d: no review of the hand (%s)", live.id, e)
        except Exception as e:
            log.warning("match %d: the review of a hand failed (%r)", live.id, e)
        finally:
            if self._reviewing.get(live.id) is asyncio.current_task():
                del self._reviewing[live.id]
                self._current.pop(live.id, None)

#: Each bot's coach. A coach holds its bot weakly: a bot dropped goes, and its coach with it.
_COACHES: WeakKeyDictionary[discord.Client, Coach] = WeakKeyDictionary()


def coach_of(client: discord.Client) -> Coach:
    found = _COACHES.get(client)
    if found is None:
        found = _COACHES[client] = Coach(client)
    return found


def load_coach(client: discord.Client) -> None:
    """At start-up (and at a reload of the extension): review the practice hands as they end,
    those a coach closed before left unsent first; closed with the service."""
    svc = service(client)
    coach = coach_of(client)
    coach._loaded_on = svc
    svc.hand_listeners.append(coach.hands_sent)
    svc.closing.append(coach.close)
    record = in_flight(client)
    if record is not None:
        record.giving_up.append(coach.give_up_hints)
    coach.take_over(svc)


async def close_coach(client: discord.Client) -> None:
    """The extension unloaded (or reloaded): the bot's coach closes, what it has not sent
    left to the coach loaded next, if any."""
    coach = _COACHES.get(client)
    if coach is not None:
        await coach.close(hand_over=True)
