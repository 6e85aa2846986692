"""The machinery of the turn clock's soak (tests/test_clock_soak.py): a match under a random
clock, its state checked against its promises after every step.

The soak keeps its own account of each turn's time: what the player was owed when it began
(its own time and the reserve left), and how long they could play since, time passing only
while the bot ran and its gateway was up. A forfeit, a late move refused or a time-up question
must come only once that is past; and one must come once it is past by more than restarts may
have given on top (each a grace of up to a turn's own time, and the time since the bot was
last noted alive)."""

from __future__ import annotations

import datetime as dt
import gc
import random
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import UmtaliBot
from cogs.umtali.alive import heartbeat
from cogs.umtali.clock_state import CONNECTING, LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.question import Question
from cogs.umtali.reminders import turn_of
from cogs.umtali.service import MatchService
from cogs.umtali.turn_clock import clock_line
from tests.discord_helpers import World, custom_ids, flush, thread_of

#: Seconds of slack in comparing times (float sums, a deadline's rounding).
SLACK = 1.0
QUESTION = "time for this turn is up"


@dataclass
class Account:
    """The soak's account of the running turn's clock."""

    #: The turn (``reminders.turn_of``), and how often its clock was started afresh since
    #: ("keep waiting", the absent player back at the table).
    turn: tuple[int, ...] | None = None
    epoch: int = 0
    #: The turn's own time and the reserve left when it began: what the player was owed.
    own: float = 0.0
    reserve: float = 0.0
    #: How long they could play since (the bot running, its gateway up).
    played: float = 0.0
    #: What restarts may have given on top.
    grace: float = 0.0
    #: The time-up questions seen by message id: those from before the turn's clock began
    #: (or began afresh), and the one asked at its run-out.
    asked: set[int] = field(default_factory=set)
    questions: int = 0

    @property
    def owed(self) -> float:
        return self.own + self.reserve

    def __str__(self) -> str:
        return (f"turn {self.turn}/{self.epoch}: played {self.played:.1f} s of "
                f"{self.own:.0f}+{self.reserve:.1f} s owed, grace {self.grace:.1f} s")


def rel(deadline: float | None, now: float) -> str:
    return "none" if deadline is None else f"now{deadline - now:+.1f} s"


class Soak:
    def __init__(self, world: World, make_bot: Callable[[], UmtaliBot], db_path: Path,
                 seed: int) -> None:
        self.world, self.make_bot, self.db_path = world, make_bot, db_path
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[str] = []
        self.account = Account()
        #: The gateway is up (the bot runs between steps).
        self.up = True
        self.live: LiveMatch | None = None
        self.match_id = 0
        #: Discord's stamp on the next interaction: this many seconds before it arrives.
        self.lag = 0.0
        #: Up to which step a fault injected into Discord may still be at work.
        self.faulty_until = -1
        #: The last step at which Discord had failures injected still to come.
        self.failing_at = -1
        self.step_no = 0
        #: Tasks that died with an exception nobody retrieved (the loop's handler).
        self.died: list[str] = []
        #: A restart came while Discord failed edits (one waiting for its retry is lost).
        self.lost_edit = False
        #: What was seen and let pass, for the record.
        self.notes: set[str] = set()
        #: The member whose DMs are closed to the bot, if any.
        self.closed = 0
        #: The errors the bot raised to discord.py, seen so far.
        self.errors_seen = 0
        #: Each seat's reserve at the last look.
        self.reserves = [float("inf")] * 2
        #: When the bot last noted itself alive (a tick's heartbeat): by the clock, and the
        #: account then, with the time played in it so far.
        self.last_alive = (0.0, self.account, 0.0)

    # -- telling ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.log.append(f"{self.step_no:3} {text}")

    def fail(self, what: str) -> None:
        raise AssertionError(f"seed {self.seed}, step {self.step_no}: {what}\n"
                             + "\n".join(self.log[-80:]))

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.fail(what)

    # -- the match ----------------------------------------------------------------------

    @property
    def svc(self) -> MatchService:
        svc = self.world.bot.matches
        assert svc is not None
        return svc

    def current(self) -> LiveMatch:
        """The match as the bot running now holds it (the last copy seen, once let go)."""
        live = self.svc.matches.get(self.match_id)
        if live is not None:
            self.live = live
        assert self.live is not None
        return self.live

    def actor(self, seat: int) -> Any:
        live = self.current()
        for member in (self.world.alice, self.world.bob):
            if member.user.id == live.player_ids[seat]:
                return member
        raise AssertionError(f"no member plays seat {seat}")

    def stamp(self) -> dt.datetime:
        """Discord's stamp on an interaction: made ``lag`` seconds before it reaches the bot."""
        return dt.datetime.fromtimestamp(self.world.clock.now - self.lag, dt.UTC)

    def faults(self) -> bool:
        """Discord has failures to come (not the lasting ones: a channel lost), or, up to the
        step after they ran out (``retry_waits``), those it made wait to be tried again:
        retried in real time (doubling from 0.05 s), which a step may outlast after a few in
        a row."""
        if any(f["times"] is not None for f in self.world.env.backend.faults):
            self.failing_at = self.step_no
            return True
        return self.step_no <= self.failing_at + 1 and self.retry_waits()

    def retry_waits(self) -> bool:
        """Something of the match Discord failed waits to be tried again."""
        return self.live is not None and self.svc.delivery.retrying(self.live.id)

    def loop_error(self, loop: Any, context: dict[str, Any]) -> None:
        self.died.append(str(context.get("message")) + ": " + repr(context.get("exception")))

    # -- the account --------------------------------------------------------------------

    def timed(self) -> bool:
        """The turn's clock runs for a member."""
        live = self.current()
        return (not live.over and live.control.timed and live.deadline is not None
                and not live.is_computer(live.session.to_act))

    def observe(self) -> None:
        """A turn begun since the last look starts a new account."""
        live = self.current()
        if live.over or turn_of(live) == self.account.turn:
            return
        self.account = Account(turn_of(live), 0, live.control.turn,
                               live.reserves[live.session.to_act],
                               asked={m.id for m in self.questions()})
        self.say(f"  new {self.account}")

    def afresh(self, why: str) -> None:
        """The turn's clock starts afresh: another turn's time."""
        live = self.current()
        self.account = Account(self.account.turn, self.account.epoch + 1, live.control.turn,
                               live.reserves[live.session.to_act],
                               asked={m.id for m in self.questions()})
        self.say(f"  afresh ({why}): {self.account}")

    def advance(self, seconds: float, played: bool | None = None) -> None:
        """Time passes; the players could play through it if the gateway is up."""
        self.world.clock.advance(seconds)
        if self.up if played is None else played:
            self.account.played += seconds

    def since_alive(self) -> float:
        """What a restart after the bot was killed may give the running turn on top: the time
        played since the bot was last noted alive (the time since then, for a turn begun
        since)."""
        at, account, played = self.last_alive
        if account is self.account:
            return self.account.played - played
        return self.world.clock.now - at

    def overdue(self) -> float:
        """How far the running turn is past all it could have been given."""
        a = self.account
        return a.played - (a.owed + LATE + a.grace)

    def fair(self, what: str, late: float = LATE) -> None:
        """The turn's clock acted (a forfeit, a question; a move refused as late, ``late``
        0): its player had all they were owed, and (the clock) the ``LATE`` seconds a move
        made in time may take to arrive."""
        a = self.account
        self.check(a.played >= a.owed + late - SLACK, f"{what} early: {a}")

    # -- the database and Discord -------------------------------------------------------

    def query(self, sql: str) -> list[sqlite3.Row]:
        with sqlite3.connect(self.db_path) as c:
            c.row_factory = sqlite3.Row
            return c.execute(sql, (self.match_id,)).fetchall()

    def row(self) -> sqlite3.Row:
        [row] = self.query("SELECT * FROM matches WHERE id = ?")
        return row

    def questions(self) -> list[Any]:
        """Every time-up question posted, in the channel (until it is lost: deleted, in the
        soak, though SimCord keeps its messages) and in the players' DMs."""
        live = self.current()
        places = [None if live.channel_lost else thread_of(self.world, live),
                  self.world.alice.user.dm_channel, self.world.bob.user.dm_channel]
        return [m for place in places if place is not None for m in place.history()
                if QUESTION in (m.content or "")]

    # -- the timers' tick ---------------------------------------------------------------

    async def tick(self) -> None:
        """The timers' tick at the clock's time, as the bot's loop runs it (a heartbeat
        after); then all it started, done. The clock acts when it is due, and only then."""
        live = self.current()
        was_over, was_deadline = live.over, live.deadline
        due = self.up and self.timed() and self.overdue() > SLACK \
            and self.step_no > self.faulty_until
        self.say(f"  tick: {self.account}, deadline {rel(live.deadline, self.world.clock.now)}")
        await self.svc.check_timers()
        await heartbeat(self.svc)
        self.last_alive = (self.world.clock.now, self.account, self.account.played)
        await flush(self.world)
        live = self.current()
        if not self.up:
            self.check((live.over, live.deadline) == (was_over, was_deadline),
                       "the clock acted while the gateway was down")
        if live.over and not was_over:
            self.say(f"  ended at the tick: {live.session.how or live.ended}")
            if live.session.how == "timed out":
                self.fair("forfeited")
        elif was_deadline is not None and live.deadline is None and not live.over:
            self.say("  the clock stopped: the waiting player is asked")
            self.check(live.asks_when_late(), "the clock stopped where nobody can be asked")
            self.fair("asked")
        elif due and not live.over and live.deadline is not None:
            self.fail(f"the turn ran {self.overdue():.1f} s past all it could be given, and "
                      "the clock did nothing")
        self.observe()

    # -- the promises -------------------------------------------------------------------

    async def settle(self) -> None:
        """What Discord failed and waits for its retry (real seconds away) is sent now."""
        for _ in range(5):
            if not self.svc.delivery._retries:
                break
            self.svc.delivery.retry_now()
            await flush(self.world)

    async def invariants(self) -> None:
        await self.settle()
        live = self.current()
        # With nothing failing any more, the next try went through: a retry waiting on (one
        # that never comes, or always fails) would excuse every promise above for good.
        self.check(self.step_no <= self.failing_at + 1 or not self.retry_waits(),
                   f"a retry still waits, Discord failing nothing since step {self.failing_at}")
        row = self.row()
        over = row["status"] == "finished"
        self.check(row["version"] == live.version,
                   f"version saved {row['version']}, in memory {live.version}")
        self.check(over == live.over,
                   f"status saved {row['status']}, in memory over {live.over}")
        if not live.over:
            for name, saved, held in (
                    ("deadline", row["deadline"], live.deadline),
                    ("warned", bool(row["warned"]), live.warned),
                    ("question", row["question"], live.question),
                    ("reserves", [row["reserve0"], row["reserve1"]], live.reserves)):
                self.check(saved == held, f"{name} saved {saved!r}, in memory {held!r}")
        for seat in (0, 1):
            self.check(0 <= live.reserves[seat] <= live.control.reserve,
                       f"seat {seat}'s reserve is {live.reserves[seat]}")
        results = self.query("SELECT * FROM session_results WHERE match_id = ?")
        if over and not live.abandoned:
            self.check(len(results) == 1, f"a finished match has {len(results)} results")
            self.check((results[0]["winner_seat"], results[0]["how"])
                       == (live.session.winner, live.session.how),
                       f"the result ({results[0]['winner_seat']}, {results[0]['how']}) is "
                       f"not the session's ({live.session.winner}, {live.session.how})")
        else:
            self.check(results == [], f"{len(results)} results for a match not played out")
        self._questions(live, row)
        self._told_lost(live, row)
        if not live.over and not live.channel_lost:
            self._table(live)
        for seat in (0, 1):
            self.check(live.reserves[seat] <= self.reserves[seat] + SLACK,
                       f"seat {seat}'s reserve grew from {self.reserves[seat]}")
        self.reserves = list(live.reserves)
        errors = self.world.env.errors  # (read, they are taken as seen)
        for error in errors[self.errors_seen:]:
            # Only the answers Discord was made to fail: the handler's error goes up to
            # discord.py's tree, which has the bot tell it (``errors``).
            self.check("injected by test" in str(error), f"the bot raised {error!r}")
        self.errors_seen = len(errors)
        gc.collect()  # a task's exception never retrieved is told as the task goes
        self.check(not self.died, "a task died: " + "; ".join(self.died))

    def _questions(self, live: LiveMatch, row: sqlite3.Row) -> None:
        """One question a run-out, asked once; only the one the database names has buttons."""
        asked = self.questions()
        for message in asked:
            if message.id not in self.account.asked:
                self.account.questions += 1
                self.check(self.account.questions == 1,
                           f"a second question for one run-out ({self.account})")
                self.account.asked.add(message.id)
        if self.step_no <= self.faulty_until:
            return  # an edit taking buttons off may have failed, to be tried again
        buttons = [m for m in asked if custom_ids(m)]
        self.check(len(buttons) <= 1, f"{len(buttons)} questions have buttons")
        if buttons:
            saved = Question.loads(row["question"])
            self.check(saved is not None and saved.message_id == buttons[0].id
                       and not saved.withdrawn and not live.over and live.deadline is None,
                       f"a question has buttons, but the database has {saved} (over "
                       f"{live.over}, deadline {live.deadline})")

    def _told_lost(self, live: LiveMatch, row: sqlite3.Row) -> None:
        """With the channel lost, every player who can be reached was told so by a new DM
        (Discord's failures sent again), memory and the database agreeing."""
        if not live.channel_lost or live.over or self.step_no <= self.faulty_until:
            return
        for seat in (0, 1):
            if live.is_computer(seat) or live.player_ids[seat] == self.closed:
                continue
            self.check(seat not in live.lost_untold and not row[f"dm{seat}_lost_untold"],
                       f"seat {seat} is still to be told that the channel was lost (in memory "
                       f"{seat in live.lost_untold}, saved {row[f'dm{seat}_lost_untold']})")

    def _table(self, live: LiveMatch) -> None:
        """The table says when the turn ends (a restart's few seconds aside: not worth an
        edit), whose clock runs and the reserves. An edit Discord failed and the bot stopped
        before it tried again is lost (noted, not failed: ``lost_edit``)."""
        message = next(m for m in thread_of(self.world, live).history()
                       if m.id == live.table_message_id)
        shown = str(message.embeds[0].description)
        said = re.search(r"Turn ends <t:(\d+):R>", shown)
        clock = clock_line(live, self.svc.public_tr(live))
        right = (said is None) == (live.deadline is None) and clock in shown and (
            said is None or live.deadline is None
            or abs(int(said[1]) - live.deadline) < CONNECTING + 1)
        if not right and self.step_no <= self.faulty_until and self.retry_waits():
            self.say(f"  the table is stale, its edit waiting to be tried again: {shown!r}")
            self.notes.add("a table edit Discord failed, waiting to be tried again")
            return
        if not right and self.lost_edit:
            self.say(f"  the table is stale after a restart lost its edit: {shown!r}")
            self.notes.add("a table edit Discord failed, lost in a restart")
            return
        self.lost_edit = False
        self.check(right, f"the table says {shown!r}, the turn ends "
                          f"{rel(live.deadline, self.world.clock.now)}, its clock {clock!r}")

    def turn_ended(self, seat: int, account: Account) -> None:
        """``seat``'s turn (``account``) ended: its reserve spent the time played past the
        turn's own time, up to when its last move was made (``LATE`` at most before it
        arrived), less what restarts gave on top."""
        live = self.current()
        reserve_before = account.reserve
        spent = reserve_before - live.reserves[seat]
        past = max(0.0, account.played - account.own)
        least = min(reserve_before, max(0.0, past - LATE)) - account.grace
        self.check(least - SLACK <= spent <= past + SLACK,
                   f"the turn spent {spent:.1f} s of reserve, {past:.1f} s played past its "
                   f"own time ({account})")
