"""The soak's faults (tests/loopback/soak.py): each injected at a step the seed chose, on the
match in play, and checked where it has an outcome of its own (a double click moves once, an
old panel's click not at all)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from tests.loopback import soak_database
from tests.loopback.driver import SavedMatch, custom_ids, query, read_match, until
from tests.loopback.harness import BotProcess
from tests.loopback.records import Fault, Interaction
from tests.loopback.saved_db import Target
from tests.loopback.server import LoopbackDiscord
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer

#: Every fault the soak knows (``--faults``); a practice session is one now and then.
FAULTS = ("kill", "stop", "gateway", "rest", "hold", "double", "stale", "table", "database",
          "dms", "practice")
DRAWS = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}
#: What a REST fault answers: (status, Discord's error code).
ERRORS = ((429, 0), (500, 0), (502, 0), (403, 50001), (404, 10003))


@dataclass
class SoakState:
    """What the soak and its faults share."""

    db: Target
    server: LoopbackDiscord
    #: The bot's processes: one, or two sharing the database (a shard each).
    bots: list[BotProcess]
    rng: random.Random
    #: The server's protocol errors already reported.
    protocol: list[str] = field(default_factory=list)
    #: Copies of DM panels as they were: (member, match version, message).
    kept: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    #: What the soak found broken by a fault's own check (the soak reports it).
    broken: list[str] = field(default_factory=list)
    #: When a bot process was started (``time.time``): each forgets which hand it tried a
    #: seat's refused DMs in (``soak_checks.dm_problems``).
    starts: list[float] = field(default_factory=list)
    #: The real-time waits the faults make (a gateway down, the database busy and the bot's
    #: busy timeout with it, a 429's retry-after, the pause before a restart; a move's wait
    #: for its DM panel), times this (``Soak``'s ``pace``): the seed draws the same numbers
    #: all the same. A call held or delayed is not paced (past 3 s: Discord's 10062).
    pace: float = 1.0

    async def start(self, bot: BotProcess) -> None:
        self.starts.append(time.time())
        await bot.start()

    def pick(self) -> BotProcess:
        """The process a fault strikes (the seed chooses, if there are two)."""
        return self.bots[0] if len(self.bots) == 1 else self.rng.choice(self.bots)

    def panel(self, user: int, match_id: int, version: int,
              chosen: Move) -> tuple[dict[str, Any], str, list[str] | None] | None:
        """The member's DM panel offering ``chosen`` at ``version``: the message, the
        component's id, the menu's values."""
        prefix = f"umtali:m:{match_id}:{version}:"
        if chosen.kind in DRAWS:
            wanted, values = prefix + DRAWS[chosen.kind], None
        elif chosen.kind is MoveKind.DISCARD:
            wanted, values = prefix + "discard", [str(chosen)]
        else:
            # A meld or a lay offered as a button of its own.
            wanted, values = prefix + "lay:" + str(chosen), None
        for message in reversed(self.server.dm_messages(user)):
            if wanted in custom_ids(message) and (values is None or values[0] in options(
                    message, wanted)):
                return message, wanted, values
        return None

    async def wait_panel(self, user: int, match_id: int, version: int, chosen: Move,
                         timeout: float = 2.0
                         ) -> tuple[dict[str, Any], str, list[str] | None] | None:
        prefix = f"umtali:m:{match_id}:{version}:"

        def shown() -> bool:
            return any(c.startswith(prefix) for m in self.server.dm_messages(user)
                       for c in custom_ids(m))
        # Until the panel shows this version (an edit on its way): then it offers the move
        # or not.
        with contextlib.suppress(AssertionError):
            await until(shown, "the panel", timeout=timeout)
        return self.panel(user, match_id, version, chosen)

    async def answered(self, asking: Awaitable[Interaction], what: str) -> Interaction | None:
        """The interaction once the bot answered it; None, noted as broken, if it never did."""
        try:
            return await asking
        except TimeoutError:
            gateway = self.server.gateway
            unanswered = [i for i in self.server.interactions.values() if i.callback_type is None]
            sent = unanswered and any(f["d"].get("token") == unanswered[-1].token
                                      for s in gateway.sessions.values() for f in s.events
                                      if isinstance(f.get("d"), dict))
            self.broken.append(f"{what} was never answered (sent on a session: {sent}; "
                               f"{gateway.identifies} identifies, {gateway.resumes} resumes)")
            return None

    def keep(self, user: int, version: int, message: dict[str, Any]) -> None:
        self.kept = [*self.kept[-30:], (user, version, copy.deepcopy(message))]


def options(message: dict[str, Any], custom_id: str) -> list[str]:
    return [o["value"] for row in message.get("components", [])
            for c in row.get("components", []) if c.get("custom_id") == custom_id
            for o in c.get("options", [])]


class Faults:
    def __init__(self, state: SoakState, kinds: tuple[str, ...]) -> None:
        self.state, self.kinds = state, kinds
        self.done: Counter[str] = Counter()
        #: Seconds from each stop's SIGTERM to the bot's exit.
        self.stops: list[float] = []
        self._releases: set[asyncio.Task[None]] = set()

    async def inject(self, saved: SavedMatch) -> bool:
        """One fault, of a kind the seed chooses; True if it made the step's move itself."""
        if not self.kinds:
            return False
        kind = self.state.rng.choice(self.kinds)
        made: bool = await getattr(self, kind)(saved)
        return made

    def note(self, what: str) -> None:
        self.done[what] += 1

    # -- the bot ----------------------------------------------------------------------------

    async def kill(self, saved: SavedMatch) -> bool:
        """SIGKILL, now or with a move on its way, and the bot started again."""
        state = self.state
        pending = None
        if state.rng.random() < 0.5:
            self.note("kill mid-move")
            user, chosen = mover(saved)
            pending = asyncio.create_task(state.server.slash(
                user, saved.channel_id, "umtali play", {"move": str(chosen)}, timeout=60))
            await asyncio.sleep(state.rng.uniform(0, 0.2))
        else:
            self.note("kill")
        # A call Discord holds is answered first: a killed bot's call reached Discord whole
        # or not at all, and the loopback would apply a delayed one only when let go.
        self.let_go()
        bot = state.pick()
        bot.kill()
        await asyncio.sleep(state.rng.uniform(0, 1) * state.pace)
        await state.start(bot)
        if pending is not None:
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await pending
        return False

    async def stop(self, saved: SavedMatch) -> bool:
        """SIGTERM (a deploy), now or with a move on its way (sent before the signal or just
        after), and the bot started again: it exits 0, and the move is answered, either made
        or turned away as the bot restarts. (One sent after the signal may come when the
        bot has left the gateway: nobody answers it then, as in Discord.)"""
        state, rng = self.state, self.state.rng
        user, chosen = mover(saved)
        moving = rng.random() < 0.6 and user != state.server.app_id
        after = moving and rng.random() < 0.5
        pending: asyncio.Task[Interaction] | None = None

        def move() -> asyncio.Task[Interaction]:
            return asyncio.create_task(state.server.slash(
                user, saved.channel_id, "umtali play", {"move": str(chosen)},
                timeout=5 if after else 60))
        self.note(("stop, then a move" if after else "stop mid-move") if moving else "stop")
        if moving and not after:
            pending = move()
            await asyncio.sleep(rng.uniform(0, 0.2))
        bot = state.pick()
        proc = bot.proc
        assert proc is not None
        signalled = time.monotonic()
        proc.terminate()  # once: a second, once its handlers are gone, would kill it
        if after:
            await asyncio.sleep(rng.uniform(0, 0.05))
            pending = move()
        status = await asyncio.to_thread(proc.wait, 30)
        self.stops.append(time.monotonic() - signalled)
        if status != 0:
            state.broken.append(f"a stop ended the bot with status {status}")
        await asyncio.sleep(rng.uniform(0, 1) * state.pace)
        await state.start(bot)
        if pending is None:
            return False
        try:
            answer: Interaction | None = await pending
        except TimeoutError:
            answer = None
            if not after:
                state.broken.append(f"{chosen}, on its way at a stop, was never answered")
        done = len(saved.session.moves)
        now = read_match(state.db, saved.id)
        made = now is not None and now.session.moves[done:done + 1] == [chosen]
        turned = answer is not None and "restarting" in answer.text()
        self.note("a move at a stop: " + ("unanswered" if answer is None else
                                          "turned away" if turned else "made"))
        if answer is not None and turned == made:
            state.broken.append(f"{chosen} at a stop: made {made}, answered "
                                f"{answer.text()[:300]}")
        return False

    async def gateway(self, saved: SavedMatch) -> bool:
        if self.state.rng.random() < 0.5:
            self.note("gateway dropped")
            await self.state.server.drop_gateway()
        else:
            self.note("gateway down")
            await self.state.server.gateway_down(self.state.rng.uniform(0.5, 3) * self.state.pace)
        return False

    async def database(self, saved: SavedMatch) -> bool:
        """The database busy, or its connections cut (``soak_database``)."""
        return await soak_database.fault(self.state, self.note, saved, mover(saved))

    async def dms(self, saved: SavedMatch) -> bool:
        """A member of the match closes their DMs to the bot (Discord's privacy settings:
        every new message to them refused, 403 50007), or one who closed them opens them
        again: the bot tries them there once a hand, and tells the channel once while they
        stay closed (``soak_checks.dm_problems``); back, the hand panel comes there again."""
        state, server = self.state, self.state.server
        members = [u for u in saved.player_ids if u != server.app_id]
        closed = [u for u in members if u in server.refused_dms]
        if closed and (len(closed) == len(members) or state.rng.random() < 0.6):
            server.refused_dms.discard(state.rng.choice(closed))
            self.note("DMs reopened")
        else:
            server.refuse_dms(state.rng.choice([u for u in members if u not in closed]))
            self.note("DMs closed")
        return False

    # -- REST ---------------------------------------------------------------------------

    def targets(self, saved: SavedMatch) -> list[tuple[str, str, str]]:
        """(name, method, path pattern) of the calls a fault may answer."""
        server = self.state.server
        found = [("thread", "POST", rf"^/channels/{saved.channel_id}/messages$"),
                 ("answer", "POST", r"^/interactions/"),
                 ("follow-up", "PATCH", r"^/webhooks/")]
        now = read_match(self.state.db, saved.id)
        table = server.messages.get((now or saved).table_message_id or 0)
        if table is not None:
            found.append(("table", "PATCH",
                          rf"^/channels/{table['channel_id']}/messages/{table['id']}$"))
        for user in saved.player_ids:
            if (dm := server.dms.get(user)) is not None:
                found += [("DM", "PATCH", rf"^/channels/{dm}/messages/"),
                          ("DM", "POST", rf"^/channels/{dm}/messages$")]
        return found

    async def rest(self, saved: SavedMatch) -> bool:
        rng = self.state.rng
        name, method, pattern = rng.choice(self.targets(saved))
        status, code = rng.choice(ERRORS if name in ("thread", "table", "DM") else ERRORS[:3])
        times = 1 if status < 429 else rng.randint(1, 3)
        self.state.server.fail(method, pattern, times, status=status, code=code,
                               retry_after=rng.choice((0.05, 0.5, 1.5)) * self.state.pace)
        self.note(f"{method} {name} answered {status}{f' {code}' if code else ''}")
        return False

    async def hold(self, saved: SavedMatch) -> bool:
        """A call held (answered 503 when let go), carried out with its answer so held (lost
        on its way), or delayed, a few seconds."""
        rng, server = self.state.rng, self.state.server
        name, method, pattern = rng.choice(self.targets(saved))
        kind = rng.random()
        if kind < 0.35:
            fault = server.hold(method, pattern)
            self.note(f"{method} {name} held")
        elif kind < 0.65:
            fault = server.lose_answer(method, pattern)
            self.note(f"{method} {name} carried out, its answer lost")
        else:
            fault = server.delay(method, pattern)
            self.note(f"{method} {name} delayed")
        # Not paced: a call held past 3 s is an interaction's answer Discord no longer takes
        # (10062), a path a faster soak would otherwise never reach.
        task = asyncio.create_task(self._release_after(fault, rng.uniform(0.3, 4)))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)
        return False

    async def _release_after(self, fault: Fault, seconds: float) -> None:
        """Let go ``seconds`` after the call met the fault (a few seconds, not the minutes
        until the session's end: aiohttp would give up on it after five)."""
        while not fault.held:
            await asyncio.sleep(0.05)
        await asyncio.sleep(seconds)
        self.let_go()

    def let_go(self) -> None:
        self.state.server.release(hold_later=True)

    async def release_all(self) -> None:
        """Every held call let go, every fault not met yet dropped."""
        for task in list(self._releases):
            task.cancel()
        self.let_go()
        for fault in self.state.server.faults:
            fault.times = fault.hits
        # Answered before the checks that follow (a delayed post of a panel, carried out only
        # now, is the bot's to strip once it hears of it): else a check made as it lands
        # finds the panel and the bot not yet told.
        held = [call for fault in self.state.server.faults for call in fault.held]
        with contextlib.suppress(AssertionError):
            await until(lambda: all(call.status for call in held), "the held calls answered",
                        timeout=10)

    # -- members ------------------------------------------------------------------------

    async def double(self, saved: SavedMatch) -> bool:
        """The move clicked (or typed) twice at once: it is made once."""
        state = self.state
        user, chosen = mover(saved)
        done = len(saved.session.moves)
        panel = await state.wait_panel(user, saved.id, saved.version, chosen)
        if panel is not None:
            self.note("double click")
            message, custom_id, values = panel
            asked = [state.server.click(user, message, custom_id, values) for _ in range(2)]
        else:
            self.note("double /umtali play")
            asked = [state.server.slash(user, saved.channel_id, "umtali play",
                                        {"move": str(chosen)}) for _ in range(2)]
        answers = await asyncio.gather(*asked, return_exceptions=True)
        for answer in answers:
            if not isinstance(answer, Interaction):
                state.broken.append(f"a double {chosen} was not answered: {answer!r}")
            elif panel is None and not answer.ephemeral:
                state.broken.append(f"a double {chosen} was answered in public: {answer.text()}")
        await asyncio.sleep(0.3)
        rows = query(state.db, "SELECT seat, move FROM moves WHERE match_id = ? AND ply >= ? "
                     "ORDER BY ply", saved.id, done)
        ended = query(state.db, "SELECT how FROM matches WHERE id = ? AND status = 'finished'",
                      saved.id)
        if not rows and ended:
            # Ended meanwhile by another fault (a lost channel with a player's DMs closed
            # abandons the match): both answered that it is over.
            self.note(f"double: the match ended first ({ended[0]['how']})")
        elif not rows or rows[0]["move"] != str(chosen):
            state.broken.append(f"a double {chosen}: saved {[r['move'] for r in rows[:2]]}")
        elif len(rows) > 1 and (rows[1]["seat"], rows[1]["move"]) == (rows[0]["seat"],
                                                                       rows[0]["move"]):
            state.broken.append(f"a double {chosen} was made twice")
        return bool(rows)

    async def stale(self, saved: SavedMatch) -> bool:
        """A button of a DM panel of before clicked: no move is made."""
        state = self.state
        playing = re.compile(rf"^umtali:m:{saved.id}:[0-9]+:(draw|take|take2|discard|meld|lay:.*)$")
        old = [(u, v, m) for u, v, m in state.kept
               if v < saved.version and any(playing.match(c) for c in custom_ids(m))]
        if not old:
            self.note("old panel: none kept")
            return False
        self.note("old panel clicked")
        user, _, message = state.rng.choice(old)
        custom_id = state.rng.choice([c for c in custom_ids(message) if playing.match(c)])
        values = options(message, custom_id)[:1] or None
        done = len(saved.session.moves)
        await state.answered(state.server.click(user, message, custom_id, values),
                             f"the old panel's {custom_id}")
        await asyncio.sleep(0.3)
        after = read_match(state.db, saved.id)
        if after is not None and len(after.session.moves) != done:
            state.broken.append(f"the old panel's {custom_id} (version < {saved.version}) "
                                f"made the move {after.session.moves[done]}")
        return False

    async def table(self, saved: SavedMatch) -> bool:
        """``/umtali table`` in the match's thread by one of its members."""
        state = self.state
        self.note("/umtali table")
        user = state.rng.choice([u for u in saved.player_ids if u != state.server.app_id])
        await state.answered(state.server.slash(user, saved.channel_id, "umtali table"),
                             "/umtali table")
        return False


def mover(saved: SavedMatch) -> tuple[int, Move]:
    """The member to act and the greedy move."""
    seat = saved.session.to_act
    return saved.player_ids[seat], GreedyPlayer().choose(saved.session.view(seat))
