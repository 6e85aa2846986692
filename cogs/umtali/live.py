"""A match in play: its session, the Discord places it lives in, and its locks."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from cogs.umtali.names import safe_name, seat_word, unnamed
from cogs.umtali.options import computer_named, names_in
from cogs.umtali.time_control import TimeControl, time_control
from cogs.umtali.turn_words import Spoken
from data.models import AsSaved, DmPanel, MatchRow, Place
from umtali.codec import session_from_json
from umtali.events import Event
from umtali.hand import Phase
from umtali.i18n import Text, Tr
from umtali.session import Session


def told_text(turn: tuple[int, ...]) -> str:
    """A turn as saved in ``dm{seat}_told``."""
    return ":".join(map(str, turn))


def told_turn(text: str) -> tuple[int, ...] | None:
    """A turn saved by ``told_text`` (None for '', none told)."""
    return tuple(int(part) for part in text.split(":")) if text else None


@dataclass(eq=False)
class LiveMatch:
    id: int
    guild_id: int
    channel_id: int
    table_message_id: int | None
    player_ids: tuple[int, int]
    names: tuple[str, str]
    turn_timer: int
    session: Session
    deadline: float | None
    warned: bool
    dm_channel_ids: list[int | None]
    dm_message_ids: list[int | None]
    dm_refused: list[bool]
    #: Public lines of the turn in progress, announced together when the turn ends.
    pending: list[str]
    #: What ``pending`` says, as events: said again in the language of the server as the turn
    #: ends (``turn_words``). None: ``pending`` as read from the database, its text alone.
    pending_events: list[Event] | None = field(default_factory=list)
    #: Announcements saved with their move and not yet posted, oldest first.
    unsent: list[str] = field(default_factory=list)
    #: In a practice match, the seat the computer plays and its level.
    computer_seat: int | None = None
    computer_level: str | None = None
    #: The match's channel refused the bot for good: the match goes on in the players' DMs,
    #: each panel carrying the table and the last turn.
    channel_lost: bool = False
    #: Lost once the match was over (the posts of its end refused): not why it ended, nor a
    #: place it goes on from. In memory alone: a match over is not brought back at a start.
    lost_over: bool = False
    #: The published commitment to the seed, and the salt kept secret until the session ends.
    commitment: str = ""
    salt: str = ""
    #: The cut the session is played from with its seed (the text typed, or the submit's id;
    #: '' for a match never cut): public from the start, as the commitment is.
    cut: str = ""
    #: Ended with no winner (nobody could be reached, or the first post failed), and how:
    #: ``abandoned`` or ``cancelled``.
    abandoned: bool = False
    ended: str = ""
    #: The server admin who ended it so (``/umtali-admin end-match``); None: not an admin.
    ended_by: int | None = None
    #: When the match was made (the bot's clock, as saved): the end's log line says how long
    #: it lasted (0: not known).
    started: float = 0.0
    #: The last turn's announcement, shown with the hands while the channel is lost.
    last_turn: str = ""
    #: It as what happened, said on each DM panel in its reader's language (None: its text
    #: alone is known).
    last_spoken: Spoken | None = None
    #: The time control preset ('': the turn timer alone) and each seat's reserve left, in
    #: seconds, as saved with the seat's last move.
    time_control: str = ""
    reserves: list[float] = field(default_factory=lambda: [0.0, 0.0])
    #: The deadline of the turn whose own time ran out, its reserve running (the table says
    #: so; not saved: a restart works it out again).
    reserve_running: float | None = None
    #: The time-up question waiting for an answer, as saved (``question.Question``; '' for
    #: none): a move takes its buttons off.
    question: str = ""
    #: When each seat last moved, here (``quiet_turns``: at the table, not pinged); memory
    #: alone: a restart pings once.
    acted: list[float | None] = field(default_factory=lambda: [None, None])
    #: A practice match's hands whose review was sent, as saved: how many had ended when the
    #: last one was (``cogs.umtali.coach``).
    reviewed: int = 0
    #: The game's review message as last sent here (``review_dm``'s form) while its save
    #: failed, '' once one is saved: the next hand's review builds on what the player has,
    #: not on the older saved text (memory alone: a courtesy, ``coach_review``).
    review_unsaved: str = ""
    #: Each seat's new DM panel was being sent, its id not yet saved, as saved: should the
    #: bot have stopped between, that panel is stripped of its buttons (``in_dms``).
    dm_sending: list[bool] = field(default_factory=lambda: [False, False])
    #: Each seat's new DM panel on its way here, its id not yet in ``dm_message_ids`` (not
    #: saved: a click on it meanwhile is a click on the panel).
    dm_in_flight: list[bool] = field(default_factory=lambda: [False, False])
    #: Answers to clicks on each seat's DM panel on their way here (not saved): each edits the
    #: message clicked, putting its buttons back should a new panel replace it meanwhile, so
    #: the seat's mark (``dm_sending``) stays until they are in and that message stripped.
    dm_answering: list[int] = field(default_factory=lambda: [0, 0])
    #: Each seat's panel known here was replaced by a newer one read back
    #: (``take_newer_panel``), and may still offer moves (this copy's own new panel, sent
    #: before the other process's): the seat's next delivery looks through the DM for it
    #: (not saved).
    dm_looked_for: list[bool] = field(default_factory=lambda: [False, False])
    #: The version each seat's DM panel shows, when known (not saved: after a restart the
    #: panels are simply sent again).
    dm_shown: list[int | None] = field(default_factory=lambda: [None, None])
    #: The look (``Look.seen``) each seat's DM panel shows with ``dm_shown``: a panel showing
    #: that version in another look (the member changed theirs) is drawn again.
    dm_look: list[tuple[str, bool, bool, str] | None] = field(
        default_factory=lambda: [None, None])
    #: Its end said on its challenge message, and its thread set to close (``session_end``),
    #: by this copy (not saved: the end line is saved owed until told, and a restart before
    #: says it again, in place).
    summed_up: bool = False
    #: Its end line's last try failed for now (``session_end.ended``): the delivery tries it
    #: again (``Batch.ended``), as saved owed with the end (not saved itself).
    end_failed: Exception | None = None
    #: Its end line, owed as saved, wants nothing more of this copy: told, refused for good,
    #: given up after its tries, or not to be told (``Sending._end_line``). Cleared from
    #: ``resend`` by the next write (not saved).
    end_done: bool = False
    #: The look each seat's ephemeral hand panel was last drawn in, through this copy
    #: (``Looks.hand_shown``; kept on the open panel: ``hand_panels.Pane.look``).
    pane_look: list[tuple[str, bool, bool, str] | None] = field(
        default_factory=lambda: [None, None])
    #: The live table found still there by ``/umtali table`` held back by its limit (its
    #: message id, and when, by ``MatchService.ticks``): looked at again only
    #: ``tables.SEEN_FOR`` later, so that a player asking again and again does not make the
    #: bot ask Discord each time.
    table_seen: tuple[int, float] | None = None
    #: With the channel lost, the turn (``reminders.turn_of``) each seat was last told of by a
    #: new DM panel (which notifies; saved with that panel's id), and the last whose
    #: announcement owed it one, told or not (a send failed for now): the next send to the
    #: seat tells it. A match brought back (or read back: ``Owners.after_stale``) owes the
    #: seat to act its turn if it was not told (``in_dms.owe_at_bring_in``: with the channel
    #: lost no announcement is saved to deliver again).
    dm_told: list[tuple[int, ...] | None] = field(default_factory=lambda: [None, None])
    dm_owed: list[tuple[int, ...] | None] = field(default_factory=lambda: [None, None])
    #: With the channel lost, the seats still to be told so by a new DM (as saved: set with
    #: the loss, a seat's cleared with the panel that tells it).
    lost_untold: set[int] = field(default_factory=set)
    #: The seats whose refused DMs are still to be told in the channel as saved (the notice
    #: failed for now, or its finder stopped before it: ``dms_again.owed``).
    dm_untold: list[bool] = field(default_factory=lambda: [False, False])
    #: What a delivery that failed for now still owes, as saved (``Batch.dumps``): sent by
    #: the process that brings the match in (``Owners.adopt``).
    resend: str = ""
    #: A copy loaded fresh for an action, the match held by another process whose clocks
    #: stand still (its gateway down, or connecting): since when, by its note (not saved).
    #: That holder gives the turn this time back, so a move is judged with it too
    #: (``judged.judged_deadline``).
    held_still: float | None = None
    #: The holder whose note ``held_still`` was read from (read again as the turn's clock
    #: moves on: ``held_elsewhere.still_again``).
    held_by: str | None = None
    #: A copy loaded fresh for an action, the match held by another process: the time that
    #: holder owes its turn by its note (a give-back whose save failed: the deadline it is
    #: owed on, and how much; ``alive.owed_to_note``), not saved. A move is judged with it, and
    #: an action here taking the match owes it here (``Owners.adopt``): that holder, finding
    #: it taken, pays it no more.
    owed_elsewhere: tuple[float, float] | None = None
    #: The turn's deadline and since when its clock has run to it here, when set here (a
    #: move, a resume after downtime, the match taken): a pause of the bot's before then is
    #: not the turn's to be given (``standing_still``), its time counted from then (not saved).
    clock_from: tuple[float, float] | None = None
    #: The deadline of the turn given a database outage's floor (``db_outage.with_floor``)
    #: or a restart's grace, as moved on since by time given back: a later outage of that
    #: turn gives only its own time (a flapping database kept an absent player's turn alive:
    #: review135). Not saved: a restart gives its own grace anyway.
    floored: float | None = None
    #: A save of it failed in a way that may have saved it all the same, and reading it back
    #: failed too (``cogs.umtali.unheard``): the clock's next check reads it first (not saved).
    doubted: bool = False
    #: The table this process posted and took down again, its first posts having failed: its
    #: id may be saved all the same (an answer lost), yet it shows nothing (not saved).
    taken_down: int | None = None
    #: One action at a time: a second click waits, then finds the match moved on.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Messages about the match go out in the order the actions happened.
    publish_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: One DM panel sent to each seat at a time (a turn's and a warning's would cross:
    #: ``in_dms``).
    dm_locks: tuple[asyncio.Lock, asyncio.Lock] = field(
        default_factory=lambda: (asyncio.Lock(), asyncio.Lock()))

    def doubt(self) -> None:
        """Whether its last save went through is not known (``doubted``)."""
        self.doubted = True

    @property
    def version(self) -> int:
        """Moves played so far: the version of the saved state, and of every panel."""
        return len(self.session.moves)

    @property
    def control(self) -> TimeControl:
        return time_control(self.time_control, self.turn_timer)

    @property
    def over(self) -> bool:
        return self.session.over or self.abandoned

    @property
    def mid_turn(self) -> bool:
        """The seat to act has drawn: its moves since (announced only when the turn ends) are
        shown on its own panels alone."""
        return not self.over and self.session.hand.phase is Phase.MELD

    @property
    def never_shown(self) -> bool:
        """Its table was never posted (its first posts failed, or the bot stopped first)."""
        return self.table_message_id is None and not self.channel_lost

    def reachable(self, seat: int) -> bool:
        """The seat's player can be told about the match (the computer needs no telling)."""
        return self.is_computer(seat) or not self.channel_lost or not self.dm_refused[seat]

    def is_computer(self, seat: int) -> bool:
        return seat == self.computer_seat

    def names_in(self, tr: Tr) -> tuple[str, str]:
        """The players' names as ``tr``'s reader sees them: the computer's is bot text, in
        the reader's language (it is stored in the server's), a member's their own."""
        return names_in(self.names, self.computer_seat, self.computer_level, tr)

    def shown_name(self, seat: int) -> str | Text:
        """The seat's name for a message worded later, in its reader's language: a member's
        as shown safely, the computer's as bot text (``names_in``)."""
        if self.is_computer(seat) and self.computer_level is not None:
            return computer_named(self.computer_level)
        if unnamed(self.names[seat]):
            return seat_word(seat)
        return safe_name(self.names[seat])

    def asks_when_late(self) -> bool:
        """A turn run out asks the waiting player (claim, or keep waiting) rather than
        forfeiting: by correspondence, when that player is a member. The computer cannot
        answer, so a practice by correspondence forfeits as other clocks do."""
        return self.control.on_timeout == "ask" and self.computer_seat is None

    def seat_of(self, user_id: int) -> int | None:
        if user_id == self.player_ids[0]:
            return 0
        if user_id == self.player_ids[1]:
            return 1
        return None

    def at(self) -> tuple[int, bool, int, int | None, bool]:
        """Where this copy has the match, as ``data.leases.Shown.at`` has it as saved: its
        version, whether it is over, its channel, its table, whether the channel is lost."""
        return (self.version, self.over, *self.place)

    @property
    def place(self) -> Place:
        """Where this copy shows the match (``take_place``)."""
        return Place(self.channel_id, self.table_message_id, self.channel_lost)

    def take_saved(self, saved: AsSaved, was: Place | None = None) -> bool:
        """Where the match is shown as a save of this copy read it (``AsSaved``): its newer
        DM panels (``take_newer_panels``), its table (``take_place``) and its turn's warning
        claimed. Whether the table is somewhere else now."""
        self.take_newer_panels(saved.panels or ())
        if saved.warned_at is not None and saved.warned_at == self.deadline:
            # This turn's warning, claimed by its holder since this copy was read (a claim
            # keeps the version): held through this copy, its clock would take that claim
            # for its own and warn again, and its panels leave the warning out.
            self.warned = True
        return self.take_place(saved.place, was)

    def take_clock(self, saved: AsSaved) -> bool:
        """Taken at the version this copy has (``Owners.hold``; a move within the turn): the
        turn's clock as saved, if another: its deadline and warning, its time-up question, and
        the reserves. Changes the holder makes to a turn keep the version: time given back (an
        outage's), the clock stopped for the question (its question saved) or run again, a
        turn resumed after downtime (its reserve cut to what it had left). Held with the clock
        from before, this copy forfeited the player the time given back early, refused the
        question's answer as no longer needed while its own clock could stop the turn no
        more, or banked the turn's grace. Whether the deadline or the question changed. A
        match never shown keeps the deadline it is cancelled by (memory's alone)."""
        if saved.place is None:
            return False
        if saved.reserves is not None:
            self.reserves = list(saved.reserves)
        if self.never_shown or (saved.deadline, saved.question) == (self.deadline,
                                                                    self.question):
            return False
        self.deadline, self.warned = saved.deadline, saved.warned
        self.question = saved.question
        # (``held_still``, which may no longer hold for this deadline, is read again by the
        # caller: ``held_elsewhere.still_again``)
        return True

    def take_place(self, place: Place | None, was: Place | None = None) -> bool:
        """A table brought to a new message or channel (``/umtali table``, through another
        process) since this copy was read is where this copy shows the match: a move saved
        through it makes it the holder, which otherwise edited the replaced table, its
        buttons back on, and never the live one (after the end too). Whether it moved. A
        channel lost since is not taken: this copy's post there is refused, and the loss is
        found as in one process (``ChannelLoss``). ``was``: this copy's place as the read
        began; moved here since (``move_to``, a deleted table's repost: saved, then taken in
        memory), the copy is at least as new as what was read, and keeps its place."""
        if was is not None and was != self.place:
            return False
        if place is None or place.channel_lost or (
                place.channel_id, place.table_message_id, False) == (
                self.channel_id, self.table_message_id, self.channel_lost):
            return False
        if self.never_shown and self.taken_down is not None and \
                place.table_message_id == self.taken_down:
            return False  # its own first table, taken down: the match was never shown
        self.channel_id, self.table_message_id = place.channel_id, place.table_message_id
        if self.channel_lost:
            # Brought back to a channel: nobody is to be told it was lost (``move_match``).
            self.channel_lost = False
            self.lost_untold.clear()
        return True

    def take_newer_panels(self, saved: tuple[DmPanel, ...]) -> None:
        """A seat's DM panel saved newer than this copy's (the process holding the match sent
        it, a reminder's, after this copy was read) is the seat's panel here too: the next
        delivery edits it. Kept on the older one, an action here would play on that one (its
        answer putting back the buttons the newer one took off) and leave the newer one
        offering a turn played."""
        for seat, panel in enumerate(saved):
            self.take_newer_panel(seat, panel)

    def take_newer_panel(self, seat: int, panel: DmPanel) -> None:
        """``take_newer_panels`` for one seat."""
        known = self.dm_message_ids[seat]
        if panel.message_id is None or (known is not None and panel.message_id <= known):
            return
        self.dm_looked_for[seat] = self.dm_looked_for[seat] or known is not None
        self.dm_channel_ids[seat], self.dm_message_ids[seat] = panel.channel_id, panel.message_id
        self.dm_shown[seat] = None
        self.dm_told[seat] = told_turn(panel.told)
        # (one of its own on the way as it was read: the seat's delivery looks for it)
        self.dm_sending[seat] = self.dm_sending[seat] or panel.sending

    @staticmethod
    def from_row(row: MatchRow) -> LiveMatch:
        session = session_from_json(json.loads(row.state))
        return LiveMatch(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            table_message_id=row.table_message_id,
            player_ids=row.player_ids,
            names=row.names,
            turn_timer=row.turn_timer,
            session=session,
            deadline=row.deadline,
            warned=row.warned,
            dm_channel_ids=list(row.dm_channel_ids),
            dm_message_ids=list(row.dm_message_ids),
            dm_refused=list(row.dm_refused),
            pending=row.pending.split("\n") if row.pending else [],
            pending_events=None if row.pending else [],
            unsent=list(json.loads(row.unsent)),
            computer_seat=row.computer_seat,
            computer_level=row.computer_level,
            channel_lost=row.channel_lost,
            commitment=row.commitment,
            salt=row.salt,
            cut=row.cut,
            time_control=row.time_control,
            reserves=list(row.reserves),
            question=row.question,
            reviewed=row.reviewed,
            dm_sending=list(row.dm_sending),
            dm_told=[told_turn(text) for text in row.dm_told],
            # (a computer's seat, or one whose DMs are closed, has nobody to tell)
            lost_untold={seat for seat in (0, 1) if row.lost_untold[seat] and row.channel_lost
                         and seat != row.computer_seat and not row.dm_refused[seat]},
            resend=row.resend,
            dm_untold=[row.dm_untold[seat] and seat != row.computer_seat for seat in (0, 1)],
            # Ended with no result (a finished session's state says how it ended).
            abandoned=row.status == "finished" and not session.over,
            ended=row.how or "" if row.status == "finished" and not session.over else "",
            ended_by=row.ended_by,
            started=row.created_at,
        )

    @property
    def dealt(self) -> bool:
        """Cards reached the players: the table was posted (it shows the discard pile, and the
        hands follow it), or play went on in DMs."""
        return not self.never_shown
