"""The load bench's players: pairs of members who challenge each other and play greedy moves,
on their DM panels or with ``/umtali play``, through the loopback Discord."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

# Run as a script (make bench runs every bench/*.py), this module only imports.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp import web

from tests.loopback.driver import accept, custom_ids
from tests.loopback.server import Call, Interaction, LoopbackDiscord, Member
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer
from umtali.session import Session

#: Under load an answer can take a while; a real failure still ends the run.
TIMEOUT = 180.0
#: Flags of a private message.
EPHEMERAL = 64


class BenchDiscord(LoopbackDiscord):
    """The loopback Discord, also noting when an interaction's answer was followed up (its
    deferred message edited or deleted), to time answers that come in two steps."""

    def __init__(self) -> None:
        super().__init__()
        self._followed: dict[str, asyncio.Future[float]] = {}

    def _follow(self, token: str) -> asyncio.Future[float]:
        if token not in self._followed:
            self._followed[token] = asyncio.get_running_loop().create_future()
        return self._followed[token]

    def _done(self, call: Call) -> None:
        future = self._follow(call.match["token"])
        if not future.done():
            future.set_result(time.perf_counter())

    async def _hook_edit(self, call: Call) -> web.Response:
        response = await super()._hook_edit(call)
        self._done(call)
        return response

    async def _hook_delete(self, call: Call) -> web.Response:
        response = await super()._hook_delete(call)
        self._done(call)
        return response

    async def followed_up(self, answer: Interaction, timeout: float) -> float:
        """perf_counter() when the bot first edited or deleted the answer's message."""
        done = await asyncio.wait_for(asyncio.shield(self._follow(answer.token)), timeout)
        del self._followed[answer.token]
        return done


def posted_table(server: LoopbackDiscord, thread_id: int) -> int | None:
    """The match id on the "My hand" button of the table posted in the thread, once it is."""
    for message in server.channel_messages(thread_id):
        for custom_id in custom_ids(message):
            if custom_id.endswith(":hand"):
                return int(custom_id.split(":")[2])
    return None


class Pair:
    """Two members playing one match in ``channel_id``'s guild; a replica of the session
    (read once from the bot's database, then moved along with its own moves) chooses the
    greedy moves."""

    def __init__(self, server: BenchDiscord, channel_id: int, index: int) -> None:
        self.server, self.guild_channel = server, channel_id
        self.players = (server.add_member(f"a{index}"), server.add_member(f"b{index}"))
        self.match_id = self.channel_id = 0
        self.session: Session | None = None
        #: Answers the bot deferred (its answer then came as a follow-up).
        self.deferred = 0
        #: Moves played on a DM panel instead of the greedy one, which it did not offer.
        self.substituted = 0

    async def start(self, saved: Callable[[int], Awaitable[Session]]) -> None:
        a, b = self.players
        answer = await self.server.slash(a, self.guild_channel, "umtali challenge",
                                         {"opponent": Member(b)}, timeout=TIMEOUT)
        assert answer.response is not None, answer.text()
        assert any(c.endswith(":accept") for c in custom_ids(answer.response)), answer.text()
        # Accept opens the cut's modal, submitted empty: the submit's id is the cut.
        await accept(self.server, b, answer.response, timeout=TIMEOUT)
        # The match is played in a thread made from the challenge (same id); watching the
        # server's memory for its table costs nothing, unlike polling the bot's database.
        thread_id = int(answer.response["id"])
        deadline = time.monotonic() + TIMEOUT
        while (match_id := posted_table(self.server, thread_id)) is None:
            assert time.monotonic() < deadline, "the match never opened"
            await asyncio.sleep(0.05)
        self.match_id, self.channel_id = match_id, thread_id
        while not all(self.server.dm_messages(user) for user in self.players):
            assert time.monotonic() < deadline, "the hands never came"
            await asyncio.sleep(0.05)
        self.session = await saved(match_id)

    async def play(self, moves: int, latencies: list[float], via: str, think: float) -> int:
        made = 0
        session = self.session
        assert session is not None
        rng = random.Random(self.match_id * 7919 + len(session.moves))
        while made < moves and not session.over:
            seat = session.to_act
            move = GreedyPlayer().choose(session.view(seat))
            if think:
                # A player takes a moment over each action (0.5 to 1.5 times ``think``).
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if via == "dm":
                move, answer = await self.click(seat, move, session, len(session.moves))
                assert answer.callback_type == 7, answer.text()
                answered = answer.answered_at
            else:
                answer = await self.server.slash(self.players[seat], self.channel_id,
                                                 "umtali play", {"move": str(move)},
                                                 timeout=TIMEOUT)
                answered = await self.answered(answer)
            latencies.append((answered - answer.sent_at) * 1000)
            # The replica follows: the bot applied the same move to the same state.
            session.apply(move, seat)
            made += 1
        return made

    async def answered(self, answer: Interaction) -> float:
        """When the player saw their hand after ``/umtali play``: at once (a private message
        with the hand), or, deferred (private "thinking"), when the follow-up came: the
        player's panel refreshed in place and the deferred message removed, or that message
        edited into the panel."""
        if answer.callback_type == 5:
            assert int(answer.callback.get("flags") or 0) & EPHEMERAL, answer.text()
            self.deferred += 1
            return await self.server.followed_up(answer, TIMEOUT)
        assert answer.callback_type == 4, answer.text()
        assert answer.ephemeral and "embeds" in answer.callback, answer.text()
        return answer.answered_at

    async def click(self, seat: int, move: Move, session: Session,
                    version: int) -> tuple[Move, Interaction]:
        """Play ``move`` on the seat's DM panel, once the panel of this version is there; if
        the panel does not offer it (a menu shows at most 25 choices), the first legal move
        it offers: the move played and the answer. (Not ``/umtali play`` instead: with two
        processes, the thread's process may not hold the match, and the command then finds
        none; see docs/scale.md.)"""
        user = self.players[seat]
        prefix = f"umtali:m:{self.match_id}:{version}:"
        panel = await self.server.message_in(
            self.server.dms[user], lambda m: any(c.startswith(prefix) for c in custom_ids(m)),
            timeout=TIMEOUT)
        for candidate in [move, *session.legal_moves()]:
            for action, values in _ways(candidate):
                for item in (c for row in panel.get("components", [])
                             for c in row.get("components", [])):
                    if item.get("custom_id") != prefix + action:
                        continue
                    offered = {o["value"] for o in item.get("options", [])}
                    if values is None or set(values) <= offered:
                        self.substituted += candidate != move
                        return candidate, await self.server.click(
                            user, panel, prefix + action, values, timeout=TIMEOUT)
        raise AssertionError(f"the panel offers no legal move: {custom_ids(panel)}")


def _ways(move: Move) -> list[tuple[str, list[str] | None]]:
    """The DM panel's components that play ``move`` (the action after the version in the
    custom id) and the menu values to choose (None: a button)."""
    kind = move.kind
    if kind is MoveKind.DRAW:
        return [("draw", None)]
    if kind is MoveKind.TAKE:
        return [("take", None)]
    if kind is MoveKind.TAKE_TWO:
        return [("take2", None)]
    if kind is MoveKind.DISCARD:
        return [("discard", [str(move)])]
    # A meld or an extension: its own button, or a choice in the lay (or extend) menu; a
    # meld also by picking its cards one by one.
    ways: list[tuple[str, list[str] | None]] = [
        (f"lay:{move}", None), ("lay", [str(move)]), ("extend", [str(move)])]
    if kind is MoveKind.MELD:
        ways.append(("meld", [c.code for c in move.card_list]))
    return ways
