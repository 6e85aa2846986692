"""A seeded fault soak: whole sessions played through the real bot (``bot.py`` in a subprocess
that is killed and started again) and the loopback Discord, with a fault injected at random
steps, and the invariants (tests/loopback/soak_checks.py) checked after every step and at each
session's end. Run by bench/soak.py, and for a few seeds by tests/test_soak.py.

From one seed come the faults and their steps, the cuts typed, and the sessions' seeds (the
launcher's ``UMTALI_LOOPBACK_SEED``), hence every deal and move; what timing decides (which of
two racing clicks wins, how far a killed bot got) can differ from run to run.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from data.db import BUSY_TIMEOUT
from data.left_behind import NEW_DATABASE
from tests.loopback import soak_database
from tests.loopback.driver import (
    SavedMatch,
    accept,
    custom_ids,
    cut_deck,
    query,
    read_match,
    until,
    until_steady,
)
from tests.loopback.harness import BotProcess
from tests.loopback.launch import BUSY_VAR, PAUSE_VAR, SEED_VAR
from tests.loopback.records import Interaction
from tests.loopback.saved_db import ReadStuck, Target, exists
from tests.loopback.secrecy import Secrecy, in_hands
from tests.loopback.server import LoopbackDiscord, Member
from tests.loopback.soak_checks import (
    LogWatch,
    counted_problems,
    dm_problems,
    dm_seen,
    names_problems,
    ordinals,
    replay_problems,
    result_problems,
    shown_problems,
)
from tests.loopback.soak_faults import FAULTS, Faults, SoakState
from umtali.moves import Move
from umtali.players import GreedyPlayer

#: How long what failed may take to be sent after all: the delivery tries again after 5 s,
#: doubling up to 120 s while it fails (cogs/umtali/delivery.py), discord.py first on its own.
SETTLE = 150.0
SLOW_DOWN = re.compile(r"Slow down: .* in ([0-9]+) s")


class Stuck(Exception):
    """The session cannot go on (a move never saved, a table never posted): reported, and
    the soak goes on with the next session."""


@dataclass
class Report:
    seed: int
    sessions: int = 0
    practice: int = 0
    steps: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    #: Seconds from each stop's SIGTERM to the bot's exit (``Faults.stop``).
    stops: list[float] = field(default_factory=list)
    ended: Counter[str] = field(default_factory=Counter)
    broken: list[str] = field(default_factory=list)
    #: ERRORs logged for a cause the soak made on purpose, by cause.
    meant: dict[str, int] = field(default_factory=dict)


class Soak:
    def __init__(self, server: LoopbackDiscord, workdir: Path, seed: int,
                 faults: tuple[str, ...] = FAULTS, rate: float = 0.08,
                 say: Callable[[str], None] = print, *, length: tuple[int, int] | None = None,
                 practice: float = 0.2, processes: int = 1, database: str | None = None,
                 pace: float = 1.0) -> None:
        """``rate``: a step's chance of a fault; ``length``: every session resigned at a step
        in that range (else three in ten, at some step from 20 to 300); ``practice``: a
        session's chance of being one against the computer; ``processes``: 2, the bot runs
        as two processes sharing the database, a shard each, the sessions played in a guild
        of the second one's shard: each click on a DM panel reaches the first one (DMs are
        shard 0's), which does not hold the match (faults strike either process);
        ``database``: a PostgreSQL database's URL, saved to in place of an SQLite file;
        ``pace``: below 1, the faults' real-time waits and the bot's database busy timeout
        shortened by that factor (``SoakState.pace``), the same faults drawn: for the suite."""
        self.server, self.seed, self.say = server, seed, say
        self.rng = random.Random(seed)
        self.rate = rate
        self.db: Target = database or workdir / "umtali.sqlite3"
        self.channel = server.channel_id if processes == 1 else server.two_guilds()[1]
        self.bots = [BotProcess(server, workdir / "umtali.sqlite3", workdir, env={
            **({"UMTALI_DATABASE_URL": database} if database else {}),
            # A new database on purpose, though the checkout's own may hold matches (make bench).
            NEW_DATABASE: "1",
            SEED_VAR: str(seed * 10**6 + 1 + n * 10**5), PAUSE_VAR: "0.05",
            **({} if pace == 1 else {BUSY_VAR: str(BUSY_TIMEOUT * pace)}),
            **({} if processes == 1 else {"UMTALI_SHARD_COUNT": str(processes),
                                          "UMTALI_SHARD_IDS": str(n)})})
            for n in range(processes)]
        if processes > 1:
            for n, bot in enumerate(self.bots):
                bot.log = workdir / f"bot{n}.log"
        # Closed DMs refuse the panel's edits too: the bot learns of it at once (``dms``).
        server.dm_edits_refused = True
        self.members = [self.add_member(n) for n in ("ada", "ben", "cy", "dee", "eve", "fay")]
        self.report = Report(seed)
        self.secrecy = Secrecy(server)
        self.secrecy.public.add(self.channel)
        self.logs = [LogWatch(bot.log) for bot in self.bots]
        self.state = SoakState(self.db, server, self.bots, self.rng, pace=pace)
        self.faults = Faults(self.state, tuple(f for f in faults if f != "practice"))
        self.practice = practice if "practice" in faults else 0.0
        self.length = length
        self.where = "start"
        #: The hand the last step ended in: (match, game, hand).
        self.hand: tuple[int, int, int] = (0, 0, 0)
        #: The matches found in play with their channel lost and a player's DMs refused (each
        #: to be abandoned: checked once).
        self.stranded: set[int] = set()
        self._turn = 0

    # -- running --------------------------------------------------------------------------

    async def run(self, sessions: int) -> Report:
        for bot in self.bots:
            await self.state.start(bot)
        try:
            for i in range(sessions):
                practice = self.rng.random() < self.practice
                self.where = f"session {i}"
                try:
                    await self.session(i, practice)
                except (Stuck, TimeoutError, ReadStuck) as e:
                    self.broke(str(e) or f"timed out: {e!r}")
                    self.check_log()
                    self.members = [self.add_member(f"m{len(self.server.members)}")
                                    for _ in range(2)] + self.members[2:]
                self.report.sessions += 1
                self.report.practice += practice
            # Still what the database holds, whatever came late (a post the bot sent before an
            # end, tried again by discord.py after a 5xx, lands after it: given the while the
            # bot takes to strip it, as at each session's end).
            self.where = "the run's end"
            await asyncio.sleep(1)
            finished = [match_id for (match_id,) in query(
                self.db, "SELECT id FROM matches WHERE status = 'finished'")]
            with contextlib.suppress(AssertionError):
                await until(lambda: not any(shown_problems(self.server, self.db, match_id)
                                            for match_id in finished),
                            "the tables and panels at the run's end", timeout=SETTLE)
            for match_id in finished:
                for problem in shown_problems(self.server, self.db, match_id):
                    self.broke(problem)
        finally:
            await self.faults.release_all()
            for bot in self.bots:
                await bot.stop()
        self.check_log()
        for log in self.logs:
            for cause, count in log.meant.items():
                self.report.meant[cause] = self.report.meant.get(cause, 0) + count
        self.report.faults = self.faults.done
        self.report.stops = self.faults.stops
        return self.report

    def add_member(self, name: str) -> int:
        """A member named three ways: ``name`` (their username), a Discord-wide display name
        and a nickname on the servers, each apart (``names_problems``)."""
        user = self.server.add_member(name)
        self.server.users[user]["global_name"] = f"{name.title()} Wide"
        self.server.nicks[user] = f"{name.title()} Here"
        return user

    def broke(self, what: str) -> None:
        # When, to find it in the kept trace (``trace.py``, times in UTC).
        at = datetime.now(UTC).strftime("%H:%M:%S.%f")[:-3]
        line = f"seed {self.seed}, {self.where} ({at}): {what[:600]}"
        self.report.broken.append(line)
        self.say("BROKEN " + line)

    def check_log(self) -> None:
        for problem in self.state.broken:
            self.broke(problem)
        self.state.broken.clear()
        for log in self.logs:
            for problem in log.problems():
                self.broke(problem if len(self.logs) == 1 else f"{log.path.stem}: {problem}")
        for problem in self.server.errors[len(self.state.protocol):]:
            self.broke(f"protocol: {problem}")
        self.state.protocol = list(self.server.errors)
        if self.server.unknown:
            self.broke(f"unknown calls: {self.server.unknown}")
            self.server.unknown.clear()

    # -- a session ------------------------------------------------------------------------

    def pair(self) -> tuple[int, int]:
        """Who challenges whom: each member in turn (a member waits 20 s between two)."""
        self._turn += 1
        a = self.members[self._turn % len(self.members)]
        b = self.rng.choice([m for m in self.members if m != a])
        return a, b

    async def asked(self, ask: Callable[[], Any]) -> Interaction:
        """A command that starts a session, asked again after the wait a "Slow down" names."""
        for _ in range(4):
            answer: Interaction = await ask()
            if (wait := SLOW_DOWN.search(answer.text())) is None:
                return answer
            await asyncio.sleep(int(wait.group(1)) + 0.5)
        raise Stuck("still told to slow down")

    async def session(self, i: int, practice: bool) -> None:
        server = self.server
        a, b = self.pair()
        before = read_match(self.db) if exists(self.db) else None
        cut = str(self.rng.randrange(10**9))
        if practice:
            answer = await self.asked(lambda: server.slash(a, self.channel,
                                                           "umtali practice", {"level": "easy"}))
            await until(lambda: custom_ids(answer.response), "the practice offer")
            assert answer.response is not None
            await cut_deck(server, a, answer.response, cut)
        else:
            answer = await self.asked(lambda: server.slash(
                a, self.channel, "umtali challenge", {"opponent": Member(b)}))
            if answer.response is None or answer.ephemeral:
                raise Stuck(f"the challenge was refused: {answer.text()[:300]}")
            await accept(server, b, answer.response, cut)

        def opened() -> Any:
            saved = read_match(self.db)
            fresh = saved is not None and (before is None or saved.id != before.id)
            return saved if fresh and saved is not None and saved.table_message_id else None
        try:
            saved = await until(opened, "the new session's table", timeout=30)
        except AssertionError as e:
            raise Stuck(str(e)) from None
        match_id = saved.id
        players = tuple(u for u in saved.player_ids if u in server.users and u != server.app_id)
        rated_before = ordinals(self.db, players)
        # Only this match's thread and the channel: a late edit of an ended match's table
        # shows cards that no longer matter (the run's end checks what it shows).
        self.secrecy.public = {self.channel, saved.channel_id}
        self.secrecy.skip_scan()  # the draw for first dealer names cards before any is dealt
        resign_at = self.rng.randrange(*self.length) if self.length else \
            self.rng.randrange(20, 300) if self.rng.random() < 0.3 else None
        step = 0
        while True:
            self.where = f"session {i} (match {match_id}{', practice' if practice else ''}) " \
                         f"step {step}"
            if not await self.step(match_id, step == resign_at):
                break
            step += 1
            self.report.steps += 1
            if step > 3000:
                raise Stuck("the session does not end")
        await self.ended(match_id, practice, rated_before)

    async def ended(self, match_id: int, practice: bool, before: dict[int, float]) -> None:
        await self.faults.release_all()
        self.where += " (the end)"

        def settled() -> bool:
            rows = query(self.db, "SELECT unsent FROM matches WHERE id = ?", match_id)
            recorded = query(self.db, "SELECT recorded FROM session_results WHERE match_id = ?",
                             match_id)
            return rows[0]["unsent"] == "[]" and all(r["recorded"] for r in recorded)
        try:
            await until(settled, "the end posted and recorded", timeout=SETTLE)
        except AssertionError as e:
            self.broke(str(e))
        # The table and the panels are edited after the save, and again later where Discord
        # failed: given a while to come right, and to stay so (a send held back and let go
        # shows an older version for a moment, then the one saved: ``overtaken``).
        with contextlib.suppress(AssertionError):
            await until_steady(lambda: not shown_problems(self.server, self.db, match_id),
                               "the table and panels", timeout=SETTLE)
        for problem in (replay_problems(self.db, match_id)
                        + result_problems(self.db, match_id, practice, before)
                        + shown_problems(self.server, self.db, match_id)
                        + names_problems(self.server, self.db, match_id)
                        + dm_problems(self.server, self.db, match_id, self.state.starts,
                                      len(self.bots))
                        + counted_problems(self.db)):
            self.broke(problem)
        self.faults.done.update(dm_seen(self.server, self.db, match_id))
        [how] = query(self.db, "SELECT how FROM matches WHERE id = ?", match_id)
        self.report.ended[how["how"] or "?"] += 1
        self.check_log()

    # -- a step ---------------------------------------------------------------------------

    async def step(self, match_id: int, resign: bool) -> bool:
        """A fault perhaps, then the next move of the member to act (or a resignation); the
        invariants checked. False once the session is over."""
        saved = await self.human_to_act(match_id)
        if saved is None:
            return False
        if (hand := (match_id, saved.session.game, saved.session.hand_no)) != self.hand:
            # The computer ended the hand: what tells of that hand was posted meanwhile.
            await self.unsent_posted(match_id)
            self.secrecy.skip_scan()
        self.secrecy.show(saved.session)
        hands = in_hands(saved.session)
        moved = False
        if self.rng.random() < self.rate:
            moved = await self.faults.inject(saved)
            if (now := read_match(self.db, match_id)) is not None:
                # A move the fault let through (a killed bot's) shows its discard.
                self.secrecy.show(now.session)
        if resign and not moved:
            await self.resign(match_id)
        elif not moved:
            await self.move(match_id)
        now = read_match(self.db, match_id)
        assert now is not None
        if (now.session.game, now.session.hand_no) != (saved.session.game,
                                                       saved.session.hand_no) \
                or now.status != "active":
            # A hand's end shows its hands; the next deal is new: judge none of it.
            await self.unsent_posted(match_id)
            self.secrecy.skip_scan()
            self.hand = (0, 0, 0)
        else:
            self.hand = hand
            # Every position of the match noted: two processes' edits of the table may
            # reach Discord out of order, an earlier hand's shown for a moment.
            self.secrecy.history(now.session)
            for leak in self.secrecy.leaks(hands & in_hands(now.session)
                                           - self.secrecy.show(now.session),
                                           (now.session.game, now.session.hand_no)):
                self.broke(leak)
        await self.abandoned_if_unreachable(match_id)
        for problem in replay_problems(self.db, match_id):
            self.broke(problem)
        self.check_log()
        return True

    async def abandoned_if_unreachable(self, match_id: int) -> None:
        """A match whose channel is lost and a player's DMs refused the bot (nobody can tell
        that player to play) is abandoned, not left waiting on them."""
        def stranded() -> bool:
            [m] = query(self.db, "SELECT status, channel_lost, dm_refused0, dm_refused1 "
                        "FROM matches WHERE id = ?", match_id)
            return bool(m["status"] == "active" and m["channel_lost"]
                        and (m["dm_refused0"] or m["dm_refused1"]))
        if match_id in self.stranded or not stranded():
            return
        self.stranded.add(match_id)  # checked once
        self.faults.note("channel lost and DMs refused (the match to abandon)")
        try:
            await until(lambda: not stranded(), "the match abandoned", timeout=30)
        except AssertionError:
            self.broke(f"match {match_id}: its channel lost and a player's DMs refused, it "
                       "is still in play")

    async def unsent_posted(self, match_id: int) -> None:
        def posted() -> bool:
            rows = query(self.db, "SELECT unsent FROM matches WHERE id = ?", match_id)
            return bool(rows[0]["unsent"] == "[]")
        try:
            await until(posted, "the hand's end posted", timeout=SETTLE)
        except AssertionError as e:
            self.broke(str(e))

    async def human_to_act(self, match_id: int) -> Any:
        """The match once a member is to act (a practice's computer has played): None once
        it is over."""
        def ready() -> Any:
            saved = read_match(self.db, match_id)
            if saved is None or saved.status != "active":
                return "over"
            seat = saved.session.to_act
            return saved if saved.player_ids[seat] != self.server.app_id else None
        try:
            found = await until(ready, "the computer's move", timeout=30)
        except AssertionError as e:
            raise Stuck(str(e)) from None
        return None if found == "over" else found

    async def move(self, match_id: int) -> None:
        """The member to act plays the greedy move: from their DM panel now and then, else
        typed; then it is saved. Told the database failed, they look, and play it again."""
        for _ in range(3):
            saved = read_match(self.db, match_id)
            assert saved is not None
            if saved.status != "active":
                # A fault's move let through (a double click's, a killed bot's saved as it
                # died) ended the session since the step began: nothing left to play.
                return
            done = len(saved.session.moves)
            chosen, answer = await self.play(saved)
            if not await soak_database.play_again(self.db, match_id, done, answer):
                break
        await self.saved_after(match_id, done, chosen, answer)

    async def play(self, saved: SavedMatch) -> tuple[Move, Interaction | None]:
        seat = saved.session.to_act
        user = saved.player_ids[seat]
        chosen = GreedyPlayer().choose(saved.session.view(seat))
        if self.rng.random() < 0.4 and user not in self.server.refused_dms and (
                panel := await self.state.wait_panel(
                user, saved.id, saved.version, chosen,
                # (none comes, the member's DMs just opened again: typed after all)
                timeout=2 * self.state.pace)) is not None:
            message, custom_id, values = panel
            self.state.keep(user, saved.version, message)
            answer = await self.state.answered(self.server.click(user, message, custom_id,
                                                                 values),
                                               f"the click on {custom_id}")
        else:
            answer = await self.state.answered(self.server.slash(
                user, saved.channel_id, "umtali play", {"move": str(chosen)}),
                f"/umtali play {chosen}")
            if answer is not None and not answer.ephemeral:
                self.broke(f"the answer to /umtali play {chosen} is public: {answer.text()}")
        return chosen, answer

    async def saved_after(self, match_id: int, done: int, chosen: Move | None,
                          answer: Interaction | None = None) -> None:
        def saved() -> bool:
            now = read_match(self.db, match_id)
            return now is not None and (len(now.session.moves) > done or now.status != "active")
        try:
            await until(saved, f"the move {chosen} saved", timeout=30)
        except AssertionError as e:
            said = "no answer" if answer is None else answer.text()[:400]
            raise Stuck(f"{e} (answered: {said})") from None

    async def resign(self, match_id: int) -> None:
        saved = read_match(self.db, match_id)
        assert saved is not None
        user = saved.player_ids[self.rng.choice([s for s in (0, 1)
                                                 if saved.player_ids[s] != self.server.app_id])]
        asked = await self.state.answered(self.server.slash(user, saved.channel_id,
                                                            "umtali resign"), "/umtali resign")
        if asked is None:
            return
        button = next((c for c in custom_ids(asked.response) if c.endswith(":resign")), None)
        if not asked.ephemeral or asked.response is None or button is None:
            self.broke(f"/umtali resign answered {asked.text()[:300]}")
            return
        await self.state.answered(self.server.click(user, asked.response, button),
                                  "the resignation's Yes")

        def over() -> bool:
            now = read_match(self.db, match_id)
            return now is not None and now.status != "active"
        try:
            await until(over, "the resignation saved", timeout=30)
        except AssertionError as e:
            raise Stuck(str(e)) from None

