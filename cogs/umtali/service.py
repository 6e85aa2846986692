"""Matches in play: start, act, resign, time out, and tell Discord what happened.

The engine decides what is legal; this module only asks it. Every accepted action is saved
(state and move log, one transaction) before anyone is told about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import discord
import orjson

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import hand_panel, table_panel
from cogs.umtali.render import hand_embed, table_embed, turn_message
from data.models import Finish
from data.store import StaleState, Store
from umtali.codec import session_to_json
from umtali.errors import UmtaliError
from umtali.events import DealerChosen, Event
from umtali.moves import Move
from umtali.players import Player
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR

log = logging.getLogger(__name__)

#: A warning goes out this long before a turn's deadline.
WARN_BEFORE = 60.0


@dataclass
class Outcome:
    """The answer to an action: ``error`` is a short sentence for the actor alone."""

    live: LiveMatch | None
    error: str = ""
    #: The panel the action came from is out of date; show the actor the current one.
    stale: bool = False
    events: list[Event] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.error


class MatchService:
    def __init__(self, client: discord.Client, store: Store,
                 clock: Callable[[], float] = time.time, computer_pause: float = 1.5) -> None:
        self.client = client
        self.store = store
        self.clock = clock
        #: Seconds the computer waits before playing its turn, so people can follow it.
        self.computer_pause = computer_pause
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        #: The computer player of each practice match, with what it remembers of the hand.
        self._computers: dict[int, Player] = {}
        self.matches: dict[int, LiveMatch] = {}
        self._queues: dict[int, Batch] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._idle: dict[int, asyncio.Event] = {}

    # -- loading and starting -------------------------------------------------------------

    def new_seed(self) -> int:
        """A new session's seed: unpredictable, so that nobody can foresee a deal."""
        return secrets.randbits(62)

    async def load_active(self) -> int:
        """Bring back every active match after a start or a restart."""
        restored = 0
        for row in await self.store.matches_to_resume():
            live = LiveMatch.from_row(row)
            self.matches[row.id] = live
            restored += not live.over
            if live.unsent:
                # Saved before a stop but never posted: post it now.
                self._enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
            self._computer_next(live)
        return restored

    def match_of(self, guild_id: int, user_id: int) -> LiveMatch | None:
        for live in self.matches.values():
            if live.guild_id == guild_id and live.seat_of(user_id) is not None and not live.over:
                return live
        return None

    async def start(
        self, *, guild_id: int, channel_id: int, players: tuple[tuple[int, str], tuple[int, str]],
        rules: RuleSet, turn_timer: int, challenge_id: int | None = None, seed: int | None = None,
        computer: tuple[int, str] | None = None,
    ) -> LiveMatch:
        """Create and save a match (raises AlreadyPlaying / StaleState from the store).

        ``computer`` is (seat, level) for a practice match against the computer.
        """
        session = Session(rules, self.new_seed() if seed is None else seed)
        computer_to_act = computer is not None and session.to_act == computer[0]
        deadline = self.clock() + turn_timer if turn_timer and not computer_to_act else None
        match_id = await self.store.create_match(
            guild_id=guild_id, channel_id=channel_id, players=players, variant=rules.name,
            turn_timer=turn_timer, state=_saved(session),
            deadline=deadline, challenge_id=challenge_id, computer=computer,
        )
        live = LiveMatch(
            id=match_id, guild_id=guild_id, channel_id=channel_id, table_message_id=None,
            player_ids=(players[0][0], players[1][0]), names=(players[0][1], players[1][1]),
            turn_timer=turn_timer, session=session, deadline=deadline, warned=False,
            dm_channel_ids=[None, None], dm_message_ids=[None, None], dm_refused=[False, False],
            pending=[], computer_seat=computer[0] if computer else None,
            computer_level=computer[1] if computer else None,
        )
        self.matches[match_id] = live
        return live

    async def open_table(self, live: LiveMatch) -> None:
        """Announce the start, post the table, and send both hands."""
        channel = self.client.get_partial_messageable(live.channel_id)
        # The draw for first dealer was shown on the challenge, before the deal.
        opening = turn_message(
            [e for e in live.session.opening if not isinstance(e, DealerChosen)], live.names)
        await channel.send(opening + "\n" + self._your_turn(live),
                           allowed_mentions=discord.AllowedMentions(users=True))
        message = await channel.send(embed=self.table_embed(live), view=table_panel(live.id))
        live.table_message_id = message.id
        await self.store.set_table_message(live.id, message.id)
        self._enqueue(live, Batch(hands={0, 1}))
        self._computer_next(live)

    # -- acting ---------------------------------------------------------------------------

    async def act(self, live: LiveMatch, user_id: int, move: Move,
                  version: int | None = None) -> Outcome:
        seat = live.seat_of(user_id)
        if seat is None:
            return Outcome(live, "This is not your match.")
        async with live.lock:
            if live.over:
                return Outcome(live, "This match is over.", stale=version is not None)
            if version is not None and version != live.version:
                return Outcome(live, "That panel is out of date; here is your hand as it is now.",
                               stale=True)
            if live.session.to_act != seat:
                other = live.names[live.session.to_act]
                return Outcome(live, f"It is not your turn: {other} is playing.")
            return await self._apply(live, seat, move)

    async def _apply(self, live: LiveMatch, seat: int, move: Move) -> Outcome:
        session = live.session
        hand = session.hand
        version = live.version
        try:
            events = session.apply(move, seat)
        except UmtaliError as e:
            return Outcome(live, _sentence(str(e)))
        lines = [line for line in turn_message(events, live.names).split("\n") if line]
        turn_over = session.over or session.hand is not hand or hand.turn != seat
        pending = [] if turn_over else [*live.pending, *lines]
        deadline = live.deadline
        if turn_over:
            # The clock runs for people only: the computer never keeps anyone waiting long.
            timed = live.turn_timer and not session.over and not live.is_computer(session.to_act)
            deadline = self.clock() + live.turn_timer if timed else None
        finish = _finish(session) if session.over else None
        announce: list[str] = []
        if turn_over:
            text = "\n".join([*live.pending, *lines])
            if not session.over:
                text += "\n" + self._your_turn(live)
            announce.append(text.strip()[:2000])
        # Saved with the move: the announcements not posted yet, this turn's included.
        unsent = [*live.unsent, *announce]
        try:
            await self.store.record_move(
                match_id=live.id, version=version, seat=seat, move=str(session.moves[-1]),
                state=_saved(session), deadline=deadline,
                pending="\n".join(pending), unsent=_json(unsent), finish=finish,
            )
        except BaseException:
            # Nothing is lost: the match goes back to what the database holds.
            await self._reload(live)
            raise
        if deadline != live.deadline:
            live.warned = False
        live.deadline = deadline
        live.pending = pending
        # In place: the sender may have posted (and dropped) earlier ones meanwhile.
        live.unsent.extend(announce)
        if turn_over:
            # Discord hears of a turn once, when it ends: the announcement, the table, and the
            # hands (a hand whose DM panel already shows this version is left alone).
            self._enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
            self._computer_next(live)
        return Outcome(live, events=events)

    async def _reload(self, live: LiveMatch) -> None:
        # The computer may remember a move that is being undone: it catches up afresh.
        self._computers.pop(live.id, None)
        row = await self.store.match(live.id)
        if row is not None:
            fresh = LiveMatch.from_row(row)
            live.session = fresh.session
            live.pending = fresh.pending
            live.deadline = fresh.deadline
            live.unsent = fresh.unsent

    async def resign(self, live: LiveMatch, seat: int, how: str = "resigned") -> bool:
        """``seat`` gives up the session; False if the match had already ended."""
        async with live.lock:
            if live.over:
                return False
            events = live.session.resign(seat, how)
            text = turn_message(events, live.names)
            unsent = [*live.unsent, text]
            try:
                await self.store.finish_match(
                    match_id=live.id, version=live.version,
                    state=_saved(live.session),
                    finish=_finish(live.session), unsent=_json(unsent),
                )
            except StaleState:
                await self._reload(live)
                return False
            live.deadline = None
            live.unsent.append(text)
            # No move was made, so the panels' version did not change: send them regardless.
            live.dm_shown = [None, None]
            self._enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
            return True

    # -- the computer ---------------------------------------------------------------------

    def _computer_next(self, live: LiveMatch) -> None:
        """If the computer is to act, let it play its turn (after a pause)."""
        if live.over or live.computer_seat is None or live.session.to_act != live.computer_seat:
            return
        task = self._computer_tasks.get(live.id)
        if task is None or task.done():
            self._computer_tasks[live.id] = asyncio.create_task(self._computer_turn(live))

    async def _computer_turn(self, live: LiveMatch) -> None:
        from umtali.ai import LEVELS
        from umtali.ai.resume import resumed

        seat = live.computer_seat
        assert seat is not None
        await asyncio.sleep(self.computer_pause)
        try:
            while not live.over and live.session.to_act == seat:
                async with live.lock:
                    if live.over or live.session.to_act != seat:
                        return
                    player = self._computers.get(live.id)
                    if player is None:
                        # First turn, or after a restart: caught up on the hand in play, so
                        # it plays as if it had never stopped (and its game replays).
                        make = LEVELS[live.computer_level or "normal"]
                        player = await asyncio.to_thread(resumed, make, live.session, seat)
                        self._computers[live.id] = player
                    view = live.session.view(seat)
                    # Searching takes a while: think in a thread so other matches go on.
                    move = await asyncio.to_thread(player.choose, view)
                    outcome = await self._apply(live, seat, move)
                if not outcome.ok:
                    self._computers.pop(live.id, None)
                    log.error("match %d: the computer's move %s was refused: %s", live.id,
                              move, outcome.error)
                    return
        except Exception:
            log.exception("match %d: the computer's turn failed", live.id)

    async def computer_idle(self) -> None:
        """Wait until no computer turn is under way (tests, shutdown)."""
        while any(not t.done() for t in self._computer_tasks.values()):
            await asyncio.gather(*self._computer_tasks.values(), return_exceptions=True)

    # -- timers ---------------------------------------------------------------------------

    async def check_timers(self, now: float | None = None) -> None:
        """Warn a player whose turn is nearly over; forfeit one whose time ran out."""
        now = self.clock() if now is None else now
        for live in list(self.matches.values()):
            if live.over or live.deadline is None:
                continue
            seat = live.session.to_act
            if now >= live.deadline:
                if await self.resign(live, seat, "timed out"):
                    log.info("match %d: seat %d timed out", live.id, seat)
            elif not live.warned and now >= live.deadline - min(WARN_BEFORE, live.turn_timer / 2):
                live.warned = True
                await self.store.set_warned(live.id)
                left = max(1, round(live.deadline - now))
                channel = self.client.get_partial_messageable(live.channel_id)
                await channel.send(
                    f"<@{live.player_ids[seat]}>, {left} seconds left for your turn, or you "
                    "forfeit the session.",
                    allowed_mentions=discord.AllowedMentions(users=True),
                )

    # -- rendering ------------------------------------------------------------------------

    def table_embed(self, live: LiveMatch) -> discord.Embed:
        return table_embed(live.session.view(SPECTATOR), live.names, live.id,
                           deadline=live.deadline)

    def hand_message(self, live: LiveMatch, seat: int, note: str = "") -> tuple[
            discord.Embed, discord.ui.View]:
        view = live.session.view(seat)
        return (hand_embed(view, live.names, live.id, note),
                hand_panel(view, live.id, live.version))

    def answered_on_dm(self, live: LiveMatch, seat: int, message_id: int) -> None:
        """The answer to an action is about to show the seat's hand on ``message_id``: if
        that is the seat's DM panel, it needs no edit of its own."""
        if message_id == live.dm_message_ids[seat]:
            live.dm_shown[seat] = live.version

    def _your_turn(self, live: LiveMatch) -> str:
        if live.over or live.is_computer(live.session.to_act):
            return ""
        return f"<@{live.player_ids[live.session.to_act]}>, your turn."

    # -- sending --------------------------------------------------------------------------

    def _enqueue(self, live: LiveMatch, batch: Batch) -> None:
        queued = self._queues.setdefault(live.id, Batch())
        queued.merge(batch)
        idle = self._idle.setdefault(live.id, asyncio.Event())
        idle.clear()
        worker = self._workers.get(live.id)
        if worker is None or worker.done():
            self._workers[live.id] = asyncio.create_task(self._send_loop(live))

    async def flush(self, match_id: int | None = None) -> None:
        """Wait until everything queued has been sent (tests, shutdown)."""
        ids = [match_id] if match_id is not None else list(self._idle)
        for i in ids:
            idle = self._idle.get(i)
            if idle is not None:
                await idle.wait()

    async def _send_loop(self, live: LiveMatch) -> None:
        while True:
            batch = self._queues.pop(live.id, None)
            if batch is None or batch.empty:
                self._idle[live.id].set()
                if live.over and not live.unsent:
                    self.matches.pop(live.id, None)
                    self._computers.pop(live.id, None)
                return
            try:
                await self._send(live, batch)
            except Exception:
                log.exception("match %d: sending to Discord failed", live.id)

    async def _send(self, live: LiveMatch, batch: Batch) -> None:
        channel = self.client.get_partial_messageable(live.channel_id)
        if batch.announce and live.unsent:
            posted = 0
            try:
                while posted < len(live.unsent):
                    # Turns that piled up (Discord slow, or a restart) go out as one message.
                    text, count = merged(live.unsent[posted:])
                    await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
                    posted += count
            finally:
                # Forget what was posted; the rest is tried again with the next batch.
                if posted:
                    del live.unsent[:posted]
                    await self.store.set_unsent(live.id, _json(live.unsent))
        if batch.table and live.table_message_id is not None:
            view = None if live.over else table_panel(live.id)
            await channel.get_partial_message(live.table_message_id).edit(
                embed=self.table_embed(live), view=view)
        for seat in sorted(batch.hands):
            await self.send_hand(live, seat)

    async def send_hand(self, live: LiveMatch, seat: int) -> None:
        """The seat's private hand by DM, edited in place; once refused, never tried again."""
        if live.dm_refused[seat] or live.is_computer(seat):
            return
        version = live.version
        if live.dm_shown[seat] == version:
            return
        embed, view = self.hand_message(live, seat)
        channel_id, message_id = live.dm_channel_ids[seat], live.dm_message_ids[seat]
        if channel_id is not None and message_id is not None:
            dm = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            try:
                await dm.get_partial_message(message_id).edit(embed=embed, view=view)
                live.dm_shown[seat] = version
                return
            except discord.NotFound:
                pass
        user_id = live.player_ids[seat]
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            message = await user.send(embed=embed, view=view)
        except discord.Forbidden:
            live.dm_refused[seat] = True
            await self.store.set_dm_refused(live.id, seat)
            channel = self.client.get_partial_messageable(live.channel_id)
            await channel.send(
                f"<@{user_id}>, I can't send you direct messages: use the **My hand** button "
                "on the table to see your cards and play.",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
            return
        live.dm_channel_ids[seat] = message.channel.id
        live.dm_message_ids[seat] = message.id
        live.dm_shown[seat] = version
        await self.store.set_dm_message(live.id, seat, message.channel.id, message.id)

    async def close(self) -> None:
        for task in [*self._workers.values(), *self._computer_tasks.values()]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _finish(session: Session) -> Finish:
    games = [*session.finished_games]
    # A session that played out keeps its last game in hand_scores too: count it once.
    if session.hand_scores and not (games and games[-1] is session.hand_scores):
        games.append(session.hand_scores)
    return Finish(
        winner_seat=session.winner,
        how=session.how,
        games_won=(session.games_won[0], session.games_won[1]),
        hand_scores=json.dumps([[list(h) for h in g] for g in games]),
    )


_YOUR_TURN = re.compile(r"\n?<@[0-9]+>, your turn\.$")


def merged(texts: list[str], limit: int = 2000) -> tuple[str, int]:
    """The first of ``texts`` joined into one message of at most ``limit`` characters, and how
    many it holds (at least one). Only the last keeps its "your turn" mention: the earlier ones
    are out of date, and a mention pings."""
    out = texts[0]
    count = 1
    for text in texts[1:]:
        joined = _YOUR_TURN.sub("", out) + "\n" + text
        if len(joined) > limit:
            break
        out, count = joined, count + 1
    return out, count


def _json(data: object) -> str:
    # orjson: the state is saved with every move, and this is several times faster than json.
    return orjson.dumps(data).decode()


def _saved(session: Session) -> str:
    """The session as saved with each move."""
    return _json(session_to_json(session))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")

