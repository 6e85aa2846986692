"""Moves played: a member's or the computer's move judged by the engine, saved, and only then
made the live session.

Every move is played on a copy of the session, which becomes the live one only once it is saved
(state and move log, one transaction, under a version check), so memory is never ahead of the
database. A save that finds the match moved on (another process, or a racing click, saved
first) takes what the database holds instead.

Mixed into ``cogs.umtali.service.MatchService``, which gives it the store, the clock, the
delivery, the computers and the match's holders.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from cogs.umtali.alive import noted
from cogs.umtali.clock_state import LATE, began
from cogs.umtali.computer import Computers
from cogs.umtali.db_outage import move_failed
from cogs.umtali.delivery import Delivery
from cogs.umtali.end_log import log_end
from cogs.umtali.fair import reveal_line, revealed
from cogs.umtali.give_back import show_clock
from cogs.umtali.held_elsewhere import notes_before, still_again
from cogs.umtali.judged import judged_deadline, made_in_time
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.owners import Owners
from cogs.umtali.question import withdraw, withdrawn
from cogs.umtali.read_back import ReadBack
from cogs.umtali.render import turn_message
from cogs.umtali.saved import finish_of, saved_state
from cogs.umtali.session_end import final_link, owed_end
from cogs.umtali.showing import tail
from cogs.umtali.steps import note_step
from cogs.umtali.turn_clock import back_at_table, turn_end
from cogs.umtali.turn_words import Spoken, announcement, spoken_in
from cogs.umtali.unheard import settled
from data.failing import failing_for_now
from data.models import AsSaved
from data.store import StaleState, Store
from umtali.errors import UmtaliError
from umtali.events import Event
from umtali.i18n import Text
from umtali.moves import Move, side_chosen
from umtali.session import Session

if TYPE_CHECKING:
    import discord

    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    """The answer to an action: ``error`` is a short sentence for the actor alone, put into
    their words by whoever answers them."""

    live: LiveMatch | None
    error: Text | None = None
    #: The panel the action came from is out of date; show the actor the current one.
    stale: bool = False
    events: list[Event] = field(default_factory=list)
    #: The save found the match moved on (another process, or a racing click, saved first).
    moved_on: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


class Playing(ReadBack):
    client: discord.Client
    store: Store
    clock: Callable[[], float]
    matches: dict[int, LiveMatch]
    delivery: Delivery
    computers: Computers
    owners: Owners

    async def act(self, live: LiveMatch, user_id: int, move: Move,
                  version: int | None = None, made: float | None = None,
                  arrived: float | None = None, default_side: bool = False) -> Outcome:
        """The member's move, made at ``made`` (Discord's stamp on its interaction; None: as
        it arrives), reaching the bot at ``arrived`` (None: now). If the save finds the match
        moved on (another process saved a move first), the move is judged again on the match
        as it is now, once: it is played if it still fits the panel it came from.
        ``default_side``: a typed discard that said no side, its last card laid face down
        where the match as it is then allows it (``moves.side_chosen``)."""
        seat = live.seat_of(user_id)
        if seat is None:
            return Outcome(live, Text.of("This is not your match."))
        # Judged by when it arrived, not when the match was free (a save, a click before it)
        # or found (a lookup waiting on a busy database).
        arrived = self.clock() if arrived is None else arrived
        try:
            return await self._act(live, seat, move, version, made, arrived, default_side)
        except Exception as e:
            # Nobody can play while the database fails: the clocks stand still from this
            # move's arrival until it works again, its player (told to try again in a
            # moment) not charged that time (``db_outage``).
            move_failed(cast("MatchService", self), live, seat,
                        arrived if made is None else made, arrived, e)
            raise

    async def _act(self, live: LiveMatch, seat: int, move: Move,
                   version: int | None, made: float | None, arrived: float,
                   default_side: bool) -> Outcome:
        async with live.lock:
            if live.never_shown:
                await self.owners.shown_since(live, quiet=False)
            refused = self._refusal(live, seat, version)
            if refused is not None and await self._behind(live):
                # Refused on a copy another process has moved on since: judged on the match
                # as it is.
                await self._reload(live)
                refused = self._refusal(live, seat, version)
            late = None if refused is not None else self._late(live, made, arrived)
            if late is not None and not live.never_shown and await self._clock_moved(live):
                # Late by a copy whose turn's clock its holder has moved since it was read
                # (time given back, the turn resumed: the version kept): judged on the clock
                # as saved.
                await self._reload(live)
                refused = self._refusal(live, seat, version)
                late = None if refused is not None else self._late(live, made, arrived)
            outcome = refused or late or await self._apply(
                live, seat, self._sided(live, move, default_side), made, arrived)
            if outcome.moved_on:
                outcome = (self._refusal(live, seat, version) or self._late(live, made, arrived)
                           or await self._apply(live, seat, self._sided(live, move, default_side),
                                                made, arrived))
            return outcome

    @staticmethod
    def _sided(live: LiveMatch, move: Move, default_side: bool) -> Move:
        """``move``, its side chosen on the match as it is (the engine says what is legal)."""
        return side_chosen(move, live.session.legal_moves()) if default_side else move

    def _late(self, live: LiveMatch, made: float | None, arrived: float) -> Outcome | None:
        """A move made after its turn's deadline is refused, whenever it arrives: the clock
        forfeits the turn at its next check. By correspondence the turn goes on past it (the
        waiting player is asked), and a late move is still played; not in a practice, whose
        turn forfeits (``LiveMatch.asks_when_late``). ``arrived``: when it reached the bot."""
        if live.asks_when_late():
            return None
        # A step of the clock the timers have not seen yet is time owed, not time run out.
        note_step(cast("MatchService", self))
        if made_in_time(cast("MatchService", self), live,
                        arrived if made is None else made, arrived):
            return None
        return Outcome(live, Text.of("Your time ran out: this move was made after your "
                                     "turn's deadline."))

    async def _clock_moved(self, live: LiveMatch) -> bool:
        """The database has another deadline for ``live``'s turn, or has moved it on (not
        for a match never shown: its deadline is memory's alone). Unread (the database busy
        or out of reach), the move is judged as the copy has it: the copy is this process's
        own, or was read for this action a moment ago, and the holder's clock judges the turn
        as saved all the same. Else the member was told to try again, that the move refused
        might have been saved."""
        try:
            row = await self.store.match(live.id)
        except Exception as e:
            if not failing_for_now(e):
                raise
            log.info("match %d: its clock as saved could not be read to judge a late move "
                     "(%s: %s); judged as this copy has it", live.id, e.__class__.__name__, e)
            return False
        return row is not None and (row.version, row.deadline) != (live.version, live.deadline)

    async def _behind(self, live: LiveMatch) -> bool:
        """The database has moved ``live`` on (a move or an end saved by another process)."""
        saved = await self.owners.leases.progress(live.id)
        return saved is not None and saved != (live.version, live.over)

    def _refusal(self, live: LiveMatch, seat: int, version: int | None) -> Outcome | None:
        if live.over:
            return Outcome(live, Text.of("This match is over."), stale=version is not None)
        if version is not None and version != live.version:
            return Outcome(live, Text.of(
                "That panel is out of date; here is your hand as it is now."), stale=True)
        if live.session.to_act != seat:
            other = live.shown_name(live.session.to_act)
            return Outcome(live, Text.of("It is not your turn: {name} is playing.", name=other))
        return None

    async def computer_move(
        self, live: LiveMatch, seat: int,
        choose: Callable[[LiveMatch, int, Session], Awaitable[Move]],
    ) -> Outcome | None:
        """The computer's next move, chosen (by ``choose``) on the session as it was, without
        the match's lock, and applied under it only if the match is still there; None when
        it is no longer the computer's turn. A choice can take a minute (a busy thinking
        pool, a hung worker): the lock held meanwhile kept the player's own turn unposted
        (``Owners.to_announce``) and an end, a display or a timer waiting on it."""
        while True:
            async with live.lock:
                if live.over or live.session.to_act != seat:
                    return None
                # Sessions are replaced, never changed in place: this one stays as it is.
                session = live.session
            move = await choose(live, seat, session)
            async with live.lock:
                if not live.over and live.session is session:
                    # Saved only by the holder: a copy another process took meanwhile (a
                    # table brought back there) may be behind in what no version counts, its
                    # table say.
                    return await self._apply(live, seat, move, held=True)
                # Ended, or moved on (read back, or taken by another process) while it
                # thought: the move is not played, and the memory that chose it is dropped.
                self.computers.drop(live.id)
                if live.over or live.session.to_act != seat:
                    return None
                log.info("match %d: the match moved on while the computer thought; it "
                         "thinks again", live.id)

    async def _apply(self, live: LiveMatch, seat: int, move: Move,
                     made: float | None = None, arrived: float | None = None,
                     held: bool = False) -> Outcome:
        """Play ``move`` (made at ``made`` and reaching the bot at ``arrived``, if known) on a
        copy of the session; the copy becomes the live session once it is saved (``held``:
        only if this process holds the match). Call with the match's lock held."""
        session = live.session.copy()
        hand = session.hand
        try:
            events = session.apply(move, seat)
        except UmtaliError as e:
            return Outcome(live, e.text)
        said = turn_message(events, live.names_in(self.public_tr(live)), self.public_tr(live))
        lines = [line for line in said.split("\n") if line]
        turn_over = session.over or session.hand is not hand or hand.turn != seat
        pending = [] if turn_over else [*live.pending, *lines]
        # The turn so far as events, where known (``turn_words``).
        heard = None if live.pending_events is None else [*live.pending_events, *events]
        deadline, reserve = live.deadline, None
        # When the turn's clock, if set here, runs from.
        at = self.clock()
        if turn_over:
            # Judged against the deadline as the clock judges it (time still owed to the
            # turn, an outage under way), ended when it arrived (not when the match was free
            # for it), or when it was made if it arrived after the deadline.
            now = at
            judged = judged_deadline(cast("MatchService", self), live, now)
            ended = now if arrived is None else min(now, arrived)
            if judged is not None and made is not None and ended >= judged:
                ended = min(ended, max(made, ended - LATE))
            deadline, reserve = turn_end(live, session, seat, now, judged, ended)
        # Back at the table while the time-up question waits: the question is withdrawn, and
        # the turn has a fresh turn's time from now.
        comeback = None if turn_over else back_at_table(live, seat, at)
        question = None
        if comeback is not None:
            deadline, question = comeback, withdrawn(live)
        finish = finish_of(session) if session.over else None
        announce: list[str] = []
        text = ""
        spoken = None
        if turn_over:
            # Said as a whole in the server's language now: held moves said again in it, not
            # left in one it has changed from mid-turn (review166).
            spoken = None if heard is None else Spoken(tuple(heard),
                                                       self._turn_mention(live, session))
            # A very long turn (many plays, long names) loses its first moves, not its
            # turn line, its discard or the hand's score (Discord's 2,000 characters).
            text = spoken_in(live, spoken, self.public_tr(live), tail) if spoken is not None \
                else announcement([*live.pending, *lines], self._your_turn(live, session), tail)
            if not live.channel_lost:
                announce.append(text)
                announce += self._reveal(live, session)
                if session.over:  # its last word: where the final card is
                    announce += final_link(live, self.public_tr(live))
        state = saved_state(session)
        # A move within the turn, its clock running on, keeps the turn's clock as saved: time
        # its holder gave back (an outage's) since this copy was read keeps the version; so
        # does its clock stopped for the time-up question, which the save finds (moved on:
        # judged again, the move withdraws it). Not a match never shown: its deadline, to
        # cancel it by, is memory's alone.
        keep = not turn_over and comeback is None and live.deadline is not None and \
            not live.never_shown
        # The turn's last move is judged by this copy's deadline (and reserve): saved only if
        # that is the deadline as saved, else judged again on the match as saved (time given
        # back, or the turn resumed, by its holder since this copy was read: judged by the
        # deadline from before, the reserve paid for that time).
        judged = turn_over and not live.never_shown
        # Where the match is shown as saved with the move: a copy read before it (loaded for
        # this action, or held here as another process took it) learns the panels sent and
        # the table brought elsewhere since.
        shown, was = AsSaved(), live.place
        # Its holder's note of its clocks standing still, read before the save too
        # (``held_elsewhere.still_again``).
        before = await notes_before(self.owners, live) if keep else None
        try:
            # Saved with the move: the announcements not posted yet, this turn's included.
            # An answer lost after the COMMIT is settled by reading the match back (``unheard``).
            unsent = await settled(f"match {live.id}: a move", self.store.record_move(
                match_id=live.id, version=live.version, seat=seat,
                move=str(session.moves[-1]), state=state, deadline=deadline,
                pending="\n".join(pending), announce=announce,
                finish=finish, reserve=reserve, owner=self.owners.name,
                lease_until=self.owners.until(), only_held=held,
                # The bot's clock dates the move and a result, as it does deadlines and seasons.
                now=self.clock(), question=question, saved=shown, keep_deadline=keep,
                judged=judged, judged_by=live.deadline, comeback=comeback is not None,
            ), lambda: self.owners.leases.saved_as(live.id, live.version + 1, state),
                doubt=live.doubt)
        except StaleState:
            # Another process (or a restart) moved the match on: take what the database holds.
            await self._reload(live)
            return Outcome(live, Text.of(
                "The match moved on meanwhile; here is your hand as it is now."),
                           stale=True, moved_on=True)
        except BaseException:
            # Not saved (or not known to be: ``live.doubted``), so not played: memory stays
            # as the database has it, or behind it.
            self.computers.drop(live.id)
            raise
        live.session = session
        if finish is not None:
            owed_end(live, shown)  # (its end line owed, saved with the end)
            log_end(live, self.clock())
        live.acted[seat] = at
        # (held with the deadline from before, its clock would forfeit the player early)
        given = keep and live.take_clock(shown)
        if given:
            deadline = live.deadline
            still_again(live, before)
        if live.take_saved(shown, was):
            self.delivery.moved(live)
        self.owners.adopt(live)
        if given:
            show_clock(cast("MatchService", self), live)  # the turn ends later now
        if reserve is not None:
            live.reserves[seat] = reserve
        begun = deadline != live.deadline
        if begun:
            live.warned = False
            live.deadline = deadline
            # Begun before the bot is connected after a start: it stands still until then.
            began(cast("MatchService", self), live, at)
        live.pending = pending
        live.pending_events = [] if turn_over else heard
        live.unsent[:] = unsent
        if comeback is not None:
            withdraw(live, question)
        if text:
            live.last_turn, live.last_spoken = text, spoken
        if turn_over:
            # Discord hears of a turn once, when it ends: the announcement, the table, and the
            # hands (a hand whose DM panel already shows this version is left alone).
            self.delivery.enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
            self.computers.next(live)
        elif comeback is not None:
            # The time-up question withdrawn: it says the player is back, and the table (with
            # the channel lost, the DM panels) the fresh turn's time.
            show_clock(cast("MatchService", self), live)
            self.delivery.enqueue(live, Batch(question=True))
        elif live.question:
            self.delivery.enqueue(live, Batch(question=True))
        svc = cast("MatchService", self)
        if begun and svc.clock_state.loaded is not None:
            # A turn begun while connecting stands still: noted so at once (another process
            # judges a move on it, or takes it, by the note). One begun during an outage runs
            # until the next check notes it, as the note reads a turn it does not name.
            await noted(svc, "as a turn began while connecting")
        return Outcome(live, events=events)

    def _reveal(self, live: LiveMatch, session: Session) -> list[str]:
        """The seed and salt of a session just over, for anyone to check its deals (none for
        a match from before deals were sealed)."""
        if not revealed(live.commitment, session.over):
            return []
        return [reveal_line(session, live.salt, live.commitment, self.public_tr(live),
                            cut=live.cut)]
