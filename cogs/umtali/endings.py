"""Matches ended other than by play: resigned (by the player, or by the clock when a turn's time
is up), or abandoned (cancelled, or its players out of reach once its channel is lost: its seed
revealed all the same once cards were dealt); and what this process kept for a match, freed
once it is over.

Mixed into ``cogs.umtali.service.MatchService``, on top of the moves (``cogs.umtali.playing``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, cast

from cogs.umtali import refused_here
from cogs.umtali.end_log import log_end
from cogs.umtali.fair import reveal_line, revealed
from cogs.umtali.live import LiveMatch
from cogs.umtali.lost_at import found_lost
from cogs.umtali.outbox import Batch
from cogs.umtali.playing import Playing
from cogs.umtali.reminders import TurnNotices
from cogs.umtali.render import turn_message
from cogs.umtali.saved import finish_of, saved_state
from cogs.umtali.session_end import final_link, owed_end
from cogs.umtali.showing import tail
from cogs.umtali.turn_words import Spoken, spoken_in
from cogs.umtali.unheard import settled
from data.models import AsSaved
from data.store import StaleState
from umtali.session import Session

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


class Endings(Playing):
    matches: dict[int, LiveMatch]
    hand_listeners: list[Callable[[LiveMatch], Awaitable[None]]]

    async def resign(self, live: LiveMatch, seat: int, how: str = "resigned",
                     still: Callable[[Session], bool] | None = None) -> bool:
        """``seat`` gives up the session; False if the match had already ended (or, with
        ``still``, moved on to where the player's wish no longer holds: ``still`` of the
        session is false). A failed save raises, and leaves the match as the database has
        it: in play."""
        async with live.lock:
            # Judged under the lock: the moves that landed while the resignation waited for
            # it (a computer's turn, saved move by move) are looked at here, not tried anew.
            if still is not None and not still(live.session):
                return False
            return await self._resign(live, seat, how)

    async def _resign(self, live: LiveMatch, seat: int, how: str, timer: bool = False,
                      stopped: bool = False) -> bool:
        """End the session with ``seat`` losing; by a timer (``timer``), only if this process
        still holds the match, so that a timer fires in one process; ``stopped``: only if its
        clock is stopped as saved, the time-up question's claim, which forgets the question
        in the same save (``finish_match``)."""
        if live.over:
            return False
        session = live.session.copy()
        events = session.resign(seat, how)
        # The turn ended here: what it laid so far, held back until its end, goes out first
        # (too long for a message, its first lines go, not how the session ended).
        spoken = None if live.pending_events is None else Spoken(
            (*live.pending_events, *events), "")
        text = tail("\n".join([*live.pending, turn_message(
            events, live.names_in(self.public_tr(live)), self.public_tr(live))]).strip(), 2000) \
            if spoken is None else spoken_in(live, spoken, self.public_tr(live), tail)
        announce = [] if live.channel_lost else [
            text, *self._reveal(live, session), *final_link(live, self.public_tr(live))]
        state = saved_state(session)
        # A copy read before the end's save learns where the match is shown as saved.
        shown, was = AsSaved(), live.place
        try:
            # An answer lost after the COMMIT is settled by reading the match back (``unheard``).
            unsent = await settled(f"match {live.id}: its end ({how})", self.store.finish_match(
                match_id=live.id, version=live.version, state=state,
                finish=finish_of(session), announce=announce, now=self.clock(),
                owner=self.owners.name, lease_until=self.owners.until(), only_held=timer,
                stopped=stopped, saved=shown,
            ), lambda: self.owners.leases.saved_as(live.id, live.version, state),
                doubt=live.doubt)
        except StaleState:
            await self._reload(live)
            return False
        live.session = session
        owed_end(live, shown)
        log_end(live, self.clock())
        if stopped:
            live.question = ""  # (forgotten with the end, as saved)
        if live.take_saved(shown, was):
            self.delivery.moved(live)
        self.owners.adopt(live)
        live.deadline = None
        live.unsent[:] = unsent
        live.last_turn, live.last_spoken = text, spoken
        # No move was made, so the panels' version did not change: send them regardless.
        live.dm_shown = [None, None]
        self.delivery.enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
        return True

    async def abandon(self, live: LiveMatch, how: str = "abandoned",
                      channel_lost: bool = False, *, if_unreachable: bool = False,
                      ended_by: int | None = None, said: str = "") -> bool:
        """End the match with no winner and no record, freeing both players. Once cards were
        dealt its seed is revealed, as a finished session's: announced in its channel (saved
        with the ending, as a last turn's announcement is) and shown on the players' panels.
        ``channel_lost``: its channel is lost with the ending (the bot was removed from its
        server): nothing more is posted there, the panels in DMs say it all.
        ``if_unreachable``: only if a player still cannot be told anything, judged under the
        lock (``/umtali table`` may have brought the match back to a channel meanwhile).
        ``ended_by``: the server admin ending it (``/umtali-admin end-match``), saved with it.
        ``said``: what its channel is told of the ending (the admin's notice), announced with
        it. The lines of a turn in progress, held back until the turn ends, go out first, as
        a resignation's do."""
        async with live.lock:
            if live.over or (if_unreachable and self._reachable(live)):
                return False
            reveal = revealed(live.commitment, False, how, live.dealt)
            lost = live.channel_lost or channel_lost
            announce = [said] if said and not lost else []
            if reveal and not lost:
                announce.append(reveal_line(live.session, live.salt, live.commitment,
                                            self.public_tr(live), how, live.cut))
            # This process holds the match from now on, as a resignation's would: it posts
            # what there is to announce (and what was still unsent before it), and a process
            # that held it drops its copy at its next renewal, rather than running that
            # copy's clock (and redrawing its panels in play) until its deadline.
            # An answer lost after the COMMIT is settled by reading the match back (``unheard``);
            # should that read fail too, the clock's next check reads it (``doubted``): tried
            # again, an ending already saved is found ended, and the match would stay in play.
            # A copy read before the save learns where the match is shown as saved.
            shown, was = AsSaved(), live.place
            # With its channel lost nothing is left to announce, which would bring the match
            # back at a restart: the panels that show the ending (and the reveal) are owed as
            # saved, lest a bot stopped before their redraw leave them in play for good.
            owed = Batch(hands={0, 1}).dumps() if lost and how == "abandoned" else ""
            unsent = await settled(f"match {live.id}: {how}", self.store.abandon_match(
                live.id, how, self.clock(), announce=announce or None, owner=self.owners.name,
                lease_until=self.owners.until(), channel_lost=channel_lost, saved=shown,
                resend=owed, unreachable=if_unreachable, ended_by=ended_by,
                turn=not lost,  # (the turn's lines as saved: this copy's may be behind)
                # The end line owed where the ended table is shown (below), as it is told.
                end_line=not lost and (how == "abandoned" or bool(reveal))),
                lambda: self.owners.leases.ended_as(live.id, how),
                doubt=live.doubt)
            if unsent is None:
                return False
            if owed:
                live.resend = owed
            owed_end(live, shown)
            live.abandoned, live.ended, live.ended_by = True, how, ended_by
            live.channel_lost = lost
            live.deadline = None
            live.unsent[:] = unsent
            # (a table posted again meanwhile, saved after this read, is kept: ``was``)
            if live.take_saved(shown, was):
                self.delivery.moved(live)
            self.owners.adopt(live)
        log_end(live, self.clock())
        if how == "abandoned" or reveal:
            live.dm_shown = [None, None]
            self.delivery.enqueue(live, Batch(announce=bool(unsent), table=True,
                                              hands={0, 1}))
        else:
            self.forget(live)
        return True

    async def abandon_if_unreachable(self, live: LiveMatch) -> bool:
        """With its channel lost, a match whose player cannot be told of their turn (DMs
        closed too) is abandoned: the clock would otherwise forfeit someone never told."""
        if live.over or self._reachable(live):
            return False
        return await self.abandon(live, if_unreachable=True)

    @staticmethod
    def _reachable(live: LiveMatch) -> bool:
        return all(live.reachable(seat) for seat in (0, 1))

    async def lose_channel(self, live: LiveMatch, channel: int | None = None) -> bool:
        """The match's channel refused the bot for good: what waited to be posted there is
        dropped, and the match goes on in DMs, both players to be told so by a new DM (those
        not told yet, should another process have lost it first). False if the channel that
        refused (``channel``; the copy's by default) is no longer the match's: ``/umtali
        table`` brought the match elsewhere while it was sent there, or since the copy was
        read. Then nothing is lost, and the copy is brought up to date, what it has to say
        sent where the match is now (or dropped, held elsewhere: ``after_stale``)."""
        async with live.lock:
            channel = live.channel_id if channel is None else channel
            if channel != live.channel_id:
                # This copy was moved meanwhile (``move_to``): it sends to the new channel.
                log.info("match %d: channel %d refused the bot, but the match has moved to "
                         "channel %d", live.id, channel, live.channel_id)
                return False
            shown = AsSaved()
            untold = await self.store.set_channel_lost(live.id, channel, shown)
            if untold is None:
                log.info("match %d: channel %d refused the bot, but another process moved the "
                         "match since; brought up to date", live.id, channel)
                await self._reload(live)
                return False
            live.channel_lost, live.lost_over = True, live.over
            found_lost(live, cast("MatchService", self).ticks())  # (``channel_return``)
            live.unsent.clear()
            live.lost_untold = {seat for seat in (0, 1) if untold[seat]}
            # Another process's notice, saved since this copy was read, told the player to
            # act its turn: that panel is the seat's, told, rather than a second one sent.
            live.take_newer_panels(shown.panels or ())
            return True

    def forget(self, live: LiveMatch) -> None:
        """Free everything kept for a finished match (or one another process holds now)."""
        held = self.matches.get(live.id)
        if held is not None and held is not live:
            return  # a newer copy is held here: what is kept is its
        self.matches.pop(live.id, None)
        self.delivery.forget(live.id)
        self.computers.forget(live.id)
        if live.over:
            # (Not for a match another process holds now: a copy read here before may still
            # act on it, and must know what this process found.)
            refused_here.forget(cast("MatchService", self), live.id)
        for notices in self._turn_notices():
            notices.drop(live.id)

    def tracked(self, match_id: int) -> bool:
        """Anything at all is still kept for ``match_id`` (tests)."""
        return (match_id in self.matches or self.delivery.tracked(match_id)
                or self.computers.tracked(match_id) or self.owners.claims.tracked(match_id)
                or any(n.tracked(match_id) for n in self._turn_notices()))

    def _turn_notices(self) -> list[TurnNotices]:
        return [n for n in self.hand_listeners if isinstance(n, TurnNotices)]
