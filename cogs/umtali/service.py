"""Matches in play: found, started, moved, timed and closed; ``MatchService`` is the one place
that takes a match's lock.

The service is made of parts, one idea each: how a match looks to each reader
(``cogs.umtali.looks``), moves played (``cogs.umtali.playing``), matches ended other than by
play (``cogs.umtali.endings``), what a turn's deadline does (``cogs.umtali.timing``), and a
table brought to another channel (``cogs.umtali.table_moves``). The engine decides what is
legal; the service only asks it. Every change is made to a copy of the session and becomes the
live one only once it is saved (state and move log, one transaction), so memory is never ahead
of the database. Telling Discord is the delivery's job
(``cogs.umtali.delivery``), the computer's turns the computers' (``cogs.umtali.computer``), and
turn deadlines the clock's (``cogs.umtali.clock``).

Several processes may share the database: ``matches`` holds the matches this one holds
(``cogs.umtali.owners``), and a match is found with ``lookup`` (by id), ``member_match`` or
``channel_match``, which fall back to the database. Every save is made under a version check;
a move saved here makes this process the match's holder.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from weakref import WeakValueDictionary

import discord

from cogs.umtali.alive import MAIN, heartbeat, noted
from cogs.umtali.announcing import with_turn
from cogs.umtali.beside import Beside
from cogs.umtali.board_posts import PublicBoards
from cogs.umtali.clock_state import ClockState
from cogs.umtali.computer import Computers
from cogs.umtali.delivery import Delivery
from cogs.umtali.end_log import log_start
from cogs.umtali.endings import Endings
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.looks import Looks
from cogs.umtali.mentions import NO_MENTIONS, only
from cogs.umtali.outbox import Batch
from cogs.umtali.owners import Owners
from cogs.umtali.panels import table_panel
from cogs.umtali.pictures import warm
from cogs.umtali.playing import Playing
from cogs.umtali.prefs import Preferences
from cogs.umtali.question_message import void_question
from cogs.umtali.removal import Removals
from cogs.umtali.render import turn_message
from cogs.umtali.rest_outage import stop_hearing
from cogs.umtali.saved import saved_state
from cogs.umtali.session_end import reopened_for
from cogs.umtali.table_moves import TableMoves
from cogs.umtali.timing import Timing
from cogs.umtali.turn_clock import first_clock
from cogs.umtali.under_way import UnderWay
from cogs.umtali.unheard import settled
from data.db import SchemaTooNew
from data.failing import failing_for_now
from data.store import Store
from umtali.events import DealerChosen
from umtali.fairness import commit
from umtali.rules import RuleSet
from umtali.seeds import cut_seed
from umtali.session import Session

if TYPE_CHECKING:
    from cogs.umtali.coach import Owed

log = logging.getLogger(__name__)


class MatchService(Timing, Endings, TableMoves, Playing, Looks):
    def __init__(self, client: discord.Client, store: Store,
                 clock: Callable[[], float] = time.time, computer_pause: float = 1.5,
                 pictures: bool = True, thinking_workers: int | None = None,
                 owner: str = MAIN) -> None:
        self.client = client
        #: Whether tables and hands carry their pictures (the text is always there).
        self.pictures = pictures
        if pictures:
            warm()  # the card sprites, once a process, before the first turn waits on them
        self.store = store
        self.clock = clock
        #: The steady clock of what this process keeps in memory a while (a wall clock set
        #: back would lift its limits); the tests' clock carries its own.
        self.ticks: Callable[[], float] = getattr(clock, "ticks", time.monotonic)
        #: The clocks' own state: the start, gateway outages, time owed (``cogs.umtali.clock``).
        self.clock_state = ClockState()
        #: The matches this process holds (``cogs.umtali.owners``): a cache of the database.
        self.matches: dict[int, LiveMatch] = {}
        #: What members and servers chose: looks, hand order, languages.
        self.prefs = Preferences(store, self._guild_locale)
        #: Called when the players' hands were sent anew (``cogs.umtali.hand_panels`` keeps
        #: the ephemeral panels in step with them).
        self.hand_listeners: list[Callable[[LiveMatch], Awaitable[None]]] = []
        #: Closed first as the service closes (``cogs.umtali.coach``'s reviews under way).
        self.closing: list[Callable[[], Awaitable[None]]] = []
        #: Set as it begins to close: no work started after ``closing`` ran (``table_doubts``).
        self.closed = False
        #: Practice hands' reviews not sent by a coach the extension's reload closed, for the
        #: coach loaded next (``Coach.take_over``).
        self.reviews_left: list[Owed] = []
        #: Called when the match moved on (a turn's table was sent, or a move was made while
        #: a time-up question waited).
        self.moved_listeners: list[Callable[[LiveMatch], Awaitable[None]]] = [
            lambda live: void_question(self, live)]
        self.delivery = Delivery(self)
        #: What the timer tick starts and does not wait for (``beside``).
        self.beside = Beside()
        #: Run at each clock check, once connected (not during an outage), beside nothing.
        self.tick_listeners: list[Callable[[], None]] = []
        self.computers = Computers(self, computer_pause, thinking_workers)
        #: Which matches this process (named ``owner``) holds.
        self.owners = Owners(self, owner)
        #: The servers that removed the bot (``cogs.umtali.removal``).
        self.removals = Removals(self)
        #: Set once a newer bot migrated the database under this one, which then stops
        #: (``cogs.umtali.outgrown``).
        self.outgrown: SchemaTooNew | None = None
        #: When each move on its way to a match (found, then judged) reached the bot.
        self._arriving: dict[int, list[float]] = {}
        #: Each match's table being moved (``move_to``), while it is.
        self._moving: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        #: The messages of challenges (and practice offers) posted here whose message id could
        #: not be saved (``challenge_posts.note_posted``), by challenge: known on show, not lost.
        self.unsaved_posts: dict[int, int] = {}
        #: When a challenge's message was last found on show (``challenge_posts.SEEN_FOR``),
        #: by challenge, by ``ticks``: not looked at again meanwhile.
        self.challenges_seen: dict[int, float] = {}
        #: Season summaries posted here that could not be marked posted (the database
        #: failing then), as (server, season): marked at a later tick, never posted again
        #: (``cogs.umtali.season_summaries.season_tick``).
        self.unmarked_summaries: set[tuple[int, str]] = set()
        #: When each channel last had a board or stats posted (``board_posts``).
        self.public_boards = PublicBoards()
        #: Boards and stats being posted, by channel; tables posted again, by match.
        self.boards_under_way, self.tables_under_way = UnderWay(), UnderWay()

    # -- loading and starting -------------------------------------------------------------

    def new_seed(self) -> str:
        """A new session's seed: 128 bits from the system's secure source (as hex text: too
        big a number for the saved state's JSON), so that nobody can foresee a deal, and a
        revealed seed tells nothing of another session's."""
        return secrets.token_hex(16)

    def new_seal(self) -> tuple[str, str, str]:
        """A session's seed and salt, drawn before anyone can act on them, and the
        commitment to them: posted at once, the seed and salt kept secret until the end."""
        seed, salt = str(self.new_seed()), secrets.token_hex(16)
        return seed, salt, commit(seed, salt)

    def cut_of(self, interaction: discord.Interaction) -> str:
        """The cut a click makes: its id, a snowflake Discord makes when it is clicked (its
        time, to the millisecond, and Discord's own counters), which nobody can foresee or
        aim, the seed being secret. Players see only what the bot posts of it (Discord's app
        shows no click's id): docs/FAIR_DEALS.md says what that leaves unprovable."""
        return str(interaction.id)

    async def load_active(self) -> int:
        """Bring back, after a start or a restart, every active match this process held (by
        its name) and every one nobody holds any more."""
        await self.prefs.load()
        lives = await self.owners.claim(start=True)
        # Their deadlines moved on to now: the clocks stand still from now until connected.
        await noted(self, "at the start")
        for live in lives:
            # A DM panel was on its way as the bot stopped, its id maybe never saved: the
            # seat's hand is sent, and that panel stripped of its buttons (``in_dms``).
            sending = {seat for seat in (0, 1) if live.dm_sending[seat]}
            if sending and not live.over:
                self.delivery.enqueue(live, Batch(hands=sending))
        return sum(not live.over for live in lives)

    def match_of(self, guild_id: int, user_id: int) -> LiveMatch | None:
        """The member's match among those held here (``member_match`` asks the database)."""
        for live in self.matches.values():
            if live.guild_id == guild_id and live.seat_of(user_id) is not None and not live.over:
                return live
        return None

    async def lookup(self, match_id: int) -> LiveMatch | None:
        """The match by id, as the database has it, wherever it is held."""
        return await self.owners.lookup(match_id)

    async def member_match(self, guild_id: int, user_id: int) -> LiveMatch | None:
        """The member's match in play on the server, wherever it is held."""
        match_id = await self.store.active_match_of(guild_id, user_id)
        live = None if match_id is None else await self.lookup(match_id)
        return None if live is None or live.over else live

    async def channel_match(self, channel_id: int) -> LiveMatch | None:
        """The match in play in the channel, wherever it is held."""
        match_id = await self.owners.leases.in_channel(channel_id)
        live = None if match_id is None else await self.lookup(match_id)
        return None if live is None or live.over else live

    async def start(
        self, *, guild_id: int, channel_id: int, players: tuple[tuple[int, str], tuple[int, str]],
        rules: RuleSet, turn_timer: int, challenge_id: int | None = None,
        seed: int | str | None = None, computer: tuple[int, str] | None = None,
        time_control: str = "", sealed: tuple[str, str] | None = None, cut: str = "",
        global_names: tuple[str, str] = ("", ""),
    ) -> LiveMatch:
        """Create and save a match (raises AlreadyPlaying / StaleState / Refused from the store).

        ``computer`` is (seat, level) for a practice match against the computer. ``sealed``:
        the seed and salt committed to before the ``cut`` (a challenge's: the text its accepting
        player typed, or their submit's id), the session played from both; without it, a seed
        (``seed``, or a new one) and a salt drawn now. ``global_names``: the players'
        Discord-wide display names by seat, for the records of all servers.
        """
        if sealed is not None:
            seed, salt = sealed
        else:
            seed = self.new_seed() if seed is None else seed
            # Published before any card is dealt; the salt is revealed with the seed at the end.
            salt = secrets.token_hex(16)
        commitment = commit(seed, salt)
        session = Session(rules, cut_seed(seed, cut))
        computer_to_act = computer is not None and session.to_act == computer[0]
        now = self.clock()
        deadline, reserve = first_clock(time_control, turn_timer, now)
        deadline = None if computer_to_act else deadline
        state = saved_state(session)
        # An answer lost after the COMMIT is settled by reading the challenge back (``unheard``).
        match_id = await settled("a match's start", self.store.create_match(
            guild_id=guild_id, channel_id=channel_id, players=players, variant=rules.name,
            turn_timer=turn_timer, state=state,
            deadline=deadline, challenge_id=challenge_id, computer=computer, now=now,
            salt=salt, commitment=commitment, time_control=time_control, reserve=reserve,
            owner=self.owners.name, lease_until=self.owners.until(), cut=cut,
            global_names=global_names,
        ), lambda: self._started(challenge_id, state, cut, now))
        live = LiveMatch(
            id=match_id, guild_id=guild_id, channel_id=channel_id, table_message_id=None,
            player_ids=(players[0][0], players[1][0]), names=(players[0][1], players[1][1]),
            turn_timer=turn_timer, session=session, deadline=deadline, warned=False,
            dm_channel_ids=[None, None], dm_message_ids=[None, None], dm_refused=[False, False],
            pending=[], computer_seat=computer[0] if computer else None,
            computer_level=computer[1] if computer else None,
            commitment=commitment, salt=salt, cut=cut, time_control=time_control,
            reserves=[reserve, reserve], started=now,
        )
        live.clock_from = None if deadline is None else (deadline, now)
        self.matches[match_id] = live
        log_start(live)
        return live

    async def _started(self, challenge_id: int | None, state: str, cut: str,
                       now: float) -> int | None:
        """The match this process made of the challenge at ``now`` (its state and cut), if
        saved; else None (another click's match is not this one)."""
        ch = None if challenge_id is None else await self.store.challenge(challenge_id)
        row = None if ch is None or ch.match_id is None else await self.store.match(ch.match_id)
        return None if row is None or (row.state, row.cut, row.created_at) != (
            state, cut, now) else row.id

    async def open_table(self, live: LiveMatch) -> bool:
        """Announce the start, post the table, and send both hands. If the first posts fail
        (the channel refuses them, Discord or the database fails), the match is cancelled
        (both players freed, nothing recorded) and False returned: nobody's clock runs on a
        table never shown."""
        channel = self.client.get_partial_messageable(live.channel_id)
        # The draw for first dealer was shown on the challenge, before the deal.
        dealt = [e for e in live.session.opening if not isinstance(e, DealerChosen)]
        opening = turn_message(dealt, live.names_in(self.public_tr(live)), self.public_tr(live))
        to_act = live.session.to_act
        posted: list[discord.Message] = []
        try:
            if live.is_computer(to_act):
                # The computer leads: the deal is announced with its first turn, one post
                # (review139: the deal's line alone, the computer's turn a moment later).
                await self.store.set_opening(live.id, opening)
                live.pending = [line for line in opening.split("\n") if line]
                live.pending_events = dealt
            else:
                posted.append(await channel.send(with_turn(self._your_turn(live), opening),
                                                 allowed_mentions=only(live.player_ids[to_act])))
            table = await self.table_message(live).drawn()  # off the event loop
            message = await channel.send(**table.send(),
                                         view=table_panel(live.id, self.public_tr(live)),
                                         allowed_mentions=NO_MENTIONS)
            posted.append(message)
            live.taken_down = message.id  # until its save is known: taken down on failure
            await self.store.set_table_message(live.id, message.id)
        except GONE as e:
            log.info("match %d: the channel refused the first posts (%s %s): cancelled",
                     live.id, e.status, e.code)
            await self._take_down(posted)
            await self.abandon(live, "cancelled")
            return False
        except Exception as e:
            # Should cancelling fail too, the first deadline cancels it (``forfeit_if_late``).
            log.warning("match %d: the first posts failed (%s: %s): cancelled", live.id,
                        e.__class__.__name__, e,
                        exc_info=not (isinstance(e, PASSING) or failing_for_now(e)))
            await self._take_down(posted)
            await self.abandon(live, "cancelled")
            return False
        live.table_message_id, live.taken_down = message.id, None
        # A rematch in a thread its first session left to close within the hour: kept open.
        await reopened_for(self, live)
        self.delivery.enqueue(live, Batch(hands={0, 1}))
        self.computers.next(live)
        return True

    @staticmethod
    async def _take_down(posted: list[discord.Message]) -> None:
        """What a match that could not start had posted (the opening, a table whose id could
        not be saved): left up, it would announce a match that is not on, with its button."""
        for message in posted:
            with contextlib.suppress(discord.HTTPException, *PASSING):
                await message.delete()

    # -- the computer, timers and sending ------------------------------------------------

    async def computer_idle(self) -> None:
        await self.computers.idle()

    async def flush(self, match_id: int | None = None) -> None:
        await self.beside.idle()  # (a warning may send the hands first: the channel lost)
        await self.delivery.flush(match_id)

    async def send_hand(self, live: LiveMatch, seat: int) -> None:
        await self.delivery.send_hand(live, seat)

    async def close(self) -> None:
        self.closed = True
        for close in list(self.closing):
            await close()
        await self.beside.close()
        await self.delivery.close()
        await self.computers.close()
        # Renewed till now (the flushes above may take a while), and never after the release.
        await self.owners.stop_renewing()
        # When the bot stopped: the next start gives running turns back their time, and
        # another process may take its matches at once. Nothing heard after the note changes
        # what it says: the database closes next.
        stop_hearing(self)
        try:
            await heartbeat(self)
            await self.owners.release()
        except Exception as e:
            log.warning("could not note when the bot stopped (%s)", e)
