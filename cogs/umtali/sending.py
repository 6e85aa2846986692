"""Sending one batch of a match's delivery: the table and the hands first, the announcements
last, each place on its own (what failed for now is tried again: ``cogs.umtali.retries``; a
channel refusing for good is lost: ``cogs.umtali.channel_loss``). The part of
``cogs.umtali.delivery.Delivery`` that sends; the queue and its workers are the delivery's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cogs.umtali.channel_loss import ChannelLoss
from cogs.umtali.dms_again import owed, paid, reopened, tried_out, try_again
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.in_dms import channel_lost, send_hand, still_untold
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.overtaken import Sent
from cogs.umtali.posting import announce, post_table
from cogs.umtali.retries import TRIES, Retries
from cogs.umtali.session_end import ended
from data.failing import failing_for_now

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

#: Seconds past the computer's pause its reply is waited for, to post the player's turn
#: with it (``_held_for_computer``): easy and normal decide in well under a millisecond.
HOLD = 2.0


@dataclass(slots=True)
class Hold:
    """A player's turn announcement held for the computer's reply, until ``until`` (loop
    time) or the computer's turn ends, whichever is first."""
    until: float
    timer: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        # A timer left pending after the turn ended would keep the loop (and a test's
        # settling) waiting on a release that has nothing to do.
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def let_go(holding: dict[int, Hold], match_id: int) -> None:
    """The match's hold (if any) dropped, its timer with it."""
    hold = holding.pop(match_id, None)
    if hold is not None:
        hold.cancel()

# The delivery's own logger: its lines keep the name they have always had (log filters).
log = logging.getLogger("cogs.umtali.delivery")


class Sending(Retries, ChannelLoss):
    service: MatchService
    _workers: dict[int, asyncio.Task[None]]
    _closed: bool
    _holding: dict[int, Hold]

    async def _send(self, live: LiveMatch, batch: Batch) -> tuple[Batch, Sent | None]:
        """Send ``batch``; what failed for now and should be tried again, and where the copy
        had the match as it was sent (None: nothing sent, its holder sends it).

        The table and the hands go before the announcements: the announcements stay saved
        until posted, and a match with some is brought back at a restart with its table and
        hands sent again (``Owners.adopt``). Posted first, a bot stopping right after them
        would leave the table and the panels showing the turn before (or a finished
        session with no final card) for good."""
        again = Batch()
        if await self.service.owners.fell_behind(live):
            return again, None  # its holder sends what there is to send
        sent = Sent(live.at())
        was_lost, was_in = live.channel_lost, live.channel_id
        if batch.table:
            await self._to_channel(live, batch, again, table=True)
        if live.channel_lost and not was_lost:
            return again, sent  # both hands were just sent, saying where the match went
        if live.channel_id != was_in:
            # The channel that refused was one the match had left: brought up to date, it
            # has queued what it has to send there (or was dropped, held elsewhere).
            return again, sent
        if batch.ended or (batch.table and (live.over or live.abandoned)):
            await self._end_line(live, batch, again)
        if batch.table or batch.question:
            for listener in self.service.moved_listeners:
                try:
                    await listener(live)
                except Exception as e:  # a question's buttons are a courtesy too
                    log.warning("match %d: a listener to moves failed (%s: %s)", live.id,
                                e.__class__.__name__, e)
        for seat in sorted(batch.hands | live.lost_untold):
            try:
                await self._hand(live, seat, announce=batch.announce)
            except PASSING as e:
                if failing_for_now(e):
                    raise  # the database's (out of reach), not the DMs': ``_failed``
                if self._hand_failed(live, seat, e):
                    again.hands.add(seat)
            else:
                self._tried(live, f"seat {seat}'s DMs", None)
        if batch.hands:
            # The players' other panels (an open My hand panel), whoever moved: the computer,
            # the clock, a resignation.
            for listener in self.service.hand_listeners:
                try:
                    await listener(live)
                except Exception as e:  # a panel is a courtesy: never stop the delivery
                    log.warning("match %d: a hand panel could not be refreshed (%s)", live.id, e)
        if batch.announce and again.table:
            # (the table failing for now: announced with it when it is tried again)
            again.announce = True
        elif batch.announce and not self._held_for_computer(live):
            await self._to_channel(live, batch, again, table=False)
        # Held, it is no failure (no retry, nothing written as owed): the hold's release or
        # the computer's batch posts it, and ``unsent`` keeps it over a restart.
        return again, sent

    async def _end_line(self, live: LiveMatch, batch: Batch, again: Batch) -> None:
        """The challenge message's end line, owed since the match's end was saved: told with
        the final table (``post_table``), or here, owed alone (the process that stopped before
        it, or whose try failed for now). Failing for now, tried again, for about an hour as
        the table is, then left as it is."""
        if batch.ended and not batch.table:
            await ended(self.service, live)
        failed, live.end_failed = live.end_failed, None
        if again.table:
            # (told with the table, when it is tried again: owed as saved till then, ``_owe``)
            again.ended = batch.ended
            return
        if failed is not None:
            if self._tried(live, "its challenge message", failed) < TRIES:
                again.ended = True
                return
            log.warning("match %d: its challenge message has failed %d tries in a row; "
                        "left without its end line", live.id, TRIES)
        else:
            self._tried(live, "its challenge message", None)
        live.end_done = True  # (no longer owed: cleared by the next write)

    def _held_for_computer(self, live: LiveMatch) -> bool:
        """Against the computer, the announcement of the player's turn waits for the
        computer's reply (its pause, and ``HOLD`` more to think), whose batch posts both,
        merged in one message (review139: the player's turn a post of its own, a second before
        the computer's, one a turn). Unposted, it stays saved (``unsent``): a stop meanwhile
        posts it at the next start. The computer slower (the hard level thinking), or its
        turn ending with no move, it is posted then, by a batch of its own (``_release``).
        Nothing waits here: the worker goes on with what else is queued."""
        seat, computers = live.computer_seat, self.service.computers
        turn = computers.turn(live.id)
        if seat is None or live.over or live.channel_lost or live.session.to_act != seat \
                or self._closed or turn is None:
            let_go(self._holding, live.id)
            return False
        loop = asyncio.get_running_loop()
        held = self._holding.get(live.id)
        if held is None:
            hold = Hold(loop.time() + computers.pause + HOLD)
            self._holding[live.id] = hold
            turn.add_done_callback(lambda _: self._release(live, hold))
            hold.timer = loop.call_later(computers.pause + HOLD, self._release, live, hold)
            return True
        if loop.time() >= held.until:
            let_go(self._holding, live.id)
            return False
        return True

    def _release(self, live: LiveMatch, hold: Hold) -> None:
        """``hold`` is over (the computer's turn ended, or took too long): what is still
        unposted goes out, unless that hold was let go already."""
        if self._holding.get(live.id) is not hold:
            return
        # Over: the next check posts it (and holds nothing more of this turn).
        hold.until = 0.0
        hold.cancel()
        if live.unsent and not self._closed:
            self.enqueue(live, Batch(announce=True))

    async def _to_channel(self, live: LiveMatch, batch: Batch, again: Batch, *,
                          table: bool) -> None:
        """The table brought up to date (``table``), or the announcements posted; what
        failed for now is set in ``again``."""
        # Where it is sent: a table brought elsewhere meanwhile (``move_to``) leaves the
        # channel that refuses it unlost.
        channel = live.channel_id
        try:
            if table:
                await post_table(self.service, live)
            else:
                await announce(self.service, live)
        except GONE as e:
            self._tried(live, "its channel", None)
            await self.lose_channel(live, e, channel, turn=batch.announce)
        except PASSING as e:
            if failing_for_now(e):
                # PostgreSQL out of reach (an OSError too): not this channel's failure, to
                # give it up by; tried again as the database's (``_failed``).
                raise
            if self.service.clock_state.outage is not None:
                # The gateway is down too: the network or Discord, not this channel. Not
                # counted towards giving it up, which would send every match to DMs.
                again.announce, again.table = batch.announce, batch.table
            elif self._tried(live, "its channel", e) < TRIES:
                again.announce, again.table = batch.announce, batch.table
            else:
                await self._give_up_channel(live, channel)
        else:
            self._tried(live, "its channel", None)

    async def _hand(self, live: LiveMatch, seat: int, *, announce: bool = False) -> None:
        """The seat's hand; as a new DM saying the channel was lost if not yet told (that
        saved with the panel: ``lost_untold``). With the channel lost, a turn's announcement
        reaches the player to act as a new DM, once (``in_dms.owed_turn``). A seat whose DMs
        refused the bot is tried there again once a hand (``dms_again``)."""
        if await try_again(self.service, live, seat):
            # Reaching them, the panel clears their refusal with its id (``set_dm_message``).
            await self.send_hand(live, seat, new=True, retry=True,
                                 note=reopened(self.service.seat_tr(live, seat)))
            tried_out(live, seat)  # (failing for now, raised: made again at the retry)
        elif await still_untold(self.service, live, seat):
            await self.send_hand(live, seat, new=True, lost=True,
                                 note=channel_lost(self.service.seat_tr(live, seat),
                                                   over=live.over))
        else:
            await self.send_hand(live, seat, tell_turn=announce)
        if live.dm_refused[seat] or live.is_computer(seat):
            live.lost_untold.discard(seat)  # nobody to tell there
            if owed(live, seat) and not live.channel_lost and not live.over:
                # Told in the channel that their DMs refused the bot, which failed for now.
                await self.tell_refused(live, seat)
        else:
            paid(live, seat)  # reached since: no longer to be told

    async def send_hand(self, live: LiveMatch, seat: int, *, new: bool = False,
                        note: str = "", unless: Callable[[], bool] | None = None,
                        tell_turn: bool = False, named: tuple[object, ...] | None = None,
                        lost: bool = False, retry: bool = False) -> bool:
        """The seat's private hand by DM (``cogs.umtali.in_dms``); whether a new panel took
        its place (``retry``: refused DMs tried again, ``dms_again``). Sent from outside the
        match's delivery (a warning, the notice after an outage), the copy is checked against
        the database first, as a delivery's is: one another process moved on is dropped and
        sends nothing; a panel saved elsewhere since is the seat's, edited (else the replaced
        one, edited here, would offer moves again, and a look through the DM strip the
        newer). A new panel (a warning) behind only in where the table is is still sent: the
        process that brought it elsewhere found the warning claimed, and never sends it."""
        owners = self.service.owners
        if self._workers.get(live.id) is not asyncio.current_task() and \
                await (owners.played_past(live) if new else owners.fell_behind(live)):
            return False
        return await send_hand(self.service, live, seat, new=new, note=note, unless=unless,
                               tell_turn=tell_turn, named=named, lost=lost, retry=retry)

    async def _give_up_channel(self, live: LiveMatch, channel: int) -> None:
        """The channel has failed for now ``TRIES`` times in a row: lost as if refused, so
        that the match goes on in DMs, unless that would leave a player unreachable (the match
        would be abandoned): then what it has to post waits for its next delivery."""
        if not all(live.is_computer(seat) or not live.dm_refused[seat] for seat in (0, 1)):
            log.warning("match %d: channel %d has failed %d tries in a row; not tried again "
                        "until the match's next delivery (a player's DMs are closed)", live.id,
                        channel, TRIES)
            return
        await self._to_dms(live, channel, f"has failed {TRIES} tries in a row")
