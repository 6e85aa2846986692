"""The computer's turns in practice matches: one player kept per match, playing after a pause.

The player keeps what it saw of the hand in play between its turns; after a restart (or a move
that was undone) it is rebuilt from its seat's views of the hand, so it plays exactly as if it
had never stopped. Its moves go through the service like anyone's.

The ``hard`` level searches, and thinks in worker processes (``cogs.umtali.thinking``) so that
other matches never wait on it; ``easy`` and ``normal`` take well under a millisecond a move
(0.1 ms at most, measured) and decide right here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from cogs.umtali.live import LiveMatch
from cogs.umtali.thinking import DEFAULT_WORKERS, Thinking
from cogs.umtali.unheard import InDoubt
from data.failing import failing_for_now
from umtali.moves import Move
from umtali.players import Player
from umtali.session import Session

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


class Computers:
    def __init__(self, service: MatchService, pause: float, workers: int | None = None) -> None:
        self.service = service
        #: Seconds the computer waits before playing its turn, so people can follow it.
        self.pause = pause
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: The computer player of each practice match, with what it remembers of the hand.
        self._players: dict[int, Player] = {}
        #: Where ``hard`` players think.
        self.thinking = Thinking(workers or DEFAULT_WORKERS)

    def next(self, live: LiveMatch) -> None:
        """If the computer is to act, let it play its turn (after a pause)."""
        if live.over or live.computer_seat is None or live.session.to_act != live.computer_seat:
            return
        task = self._tasks.get(live.id)
        if task is None or task.done():
            self._tasks[live.id] = asyncio.create_task(self._turn(live))

    def turn(self, match_id: int) -> asyncio.Task[None] | None:
        """The computer's turn under way in the match (pausing, thinking, playing), if any."""
        task = self._tasks.get(match_id)
        return None if task is None or task.done() else task

    def drop(self, match_id: int) -> None:
        """Forget the player's memory (a move it saw was undone): it catches up afresh."""
        self._players.pop(match_id, None)

    def forget(self, match_id: int) -> None:
        """Free what a finished match kept here."""
        self._players.pop(match_id, None)
        task = self._tasks.pop(match_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def tracked(self, match_id: int) -> bool:
        return match_id in self._tasks or match_id in self._players

    async def idle(self) -> None:
        """Wait until no computer turn is under way (tests, shutdown)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        await self.thinking.close()

    async def _turn(self, live: LiveMatch) -> None:
        seat = live.computer_seat
        assert seat is not None
        if live.computer_level == "hard":
            self.thinking.warm()  # during the pause
        await asyncio.sleep(self.pause)
        try:
            while not live.over and live.session.to_act == seat:
                deal = (live.session.game, live.session.hand_no)
                outcome = await self.service.computer_move(live, seat, self._choose)
                if outcome is None:
                    return
                if outcome.moved_on:
                    # Another process saved first (two processes on one database): a race
                    # that is expected. The match was reloaded as the database has it: held
                    # here still, the computer plays on from there; else its holder does.
                    held = self.service.matches.get(live.id) is live
                    log.info("match %d: another process moved the match on before the "
                             "computer's move was saved; %s", live.id,
                             "playing on from there" if held else "it plays on there")
                    if held:
                        continue
                    return
                if not outcome.ok:
                    self.drop(live.id)
                    log.error("match %d: the computer's move was refused: %s", live.id,
                              outcome.error)
                    return
                if (live.session.game, live.session.hand_no) != deal:
                    # Its move ended a hand and it opens the next: a turn of its own, after
                    # the same pause as any other (the player reads how the hand ended).
                    await asyncio.sleep(self.pause)
        except InDoubt:
            # Saved or not, unknown (logged as a warning where it was found so): the clock's
            # next check reads the match back, and gives the computer its turn from there.
            self.drop(live.id)
        except Exception as e:
            # The next action, or the clock's next check, gives it its turn again.
            self.drop(live.id)
            if failing_for_now(e):
                # The database busy or out of reach: no bug to find.
                log.warning("match %d: the computer's turn failed (%s: %s); tried again",
                            live.id, e.__class__.__name__, e)
            else:
                log.exception("match %d: the computer's turn failed", live.id)

    async def _player(self, live: LiveMatch, seat: int, session: Session) -> Player:
        """The match's computer player, caught up on the hand in play in ``session``."""
        from umtali.ai import LEVELS
        from umtali.ai.resume import resumed

        player = self._players.get(live.id)
        if player is None:
            # First turn, or after a restart: caught up on the hand in play, so it plays as if
            # it had never stopped (and its game replays).
            make = LEVELS[live.computer_level or "normal"]
            player = await asyncio.to_thread(resumed, make, session, seat)
            self._players[live.id] = player
        return player

    async def _choose(self, live: LiveMatch, seat: int, session: Session) -> Move:
        """The computer's move in ``live``, whose session is ``session`` (called without the
        match's lock: ``Playing.computer_move`` plays it only if the match is still there)."""
        player = await self._player(live, seat, session)
        view = session.view(seat)
        if live.computer_level != "hard":
            return player.choose(view)
        move, after = await self.thinking.choose(player, view)
        # The worker's copy now remembers this decision; unless the player was dropped (or
        # the match forgotten) meanwhile, it is the match's player from now on.
        if self._players.get(live.id) is player:
            self._players[live.id] = after
        return move
