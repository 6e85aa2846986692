"""Where the ``hard`` computer thinks: a small pool of worker processes, off the bot's process.

A search runs pure Python for a tenth of a second or more; in a thread it holds the interpreter
lock, and every other match's event loop waits its turn for it (with four players thinking, a
wake-up was 29 ms late at the median, 114 ms at p99). In another process it takes nothing from
the loop.

Each decision ships the player (its memory of the hand) and the view to a worker and gets back
the move with the player as the move left it: the worker keeps nothing, so any worker can take
any decision, a worker that dies loses nothing, and the move is the one the player would have
chosen in this process. Shipping costs about a kilobyte and a tenth of a millisecond each way.

A worker that dies (killed, out of memory) breaks the whole pool: it is replaced and the
decision tried once more; should that fail too, the player decides in this process, as it
did before the pool. A worker that hangs (stopped, stuck) would hold the match's turn for
ever: past ``limit`` seconds its pool is killed, and that counts as a death (for the work
still waiting in that pool for a worker too).

``limit`` counts from when a worker takes the work up (the worker says so on a pipe): on a
busy bot, work waits in the pool's queue behind other matches' searches, or for new workers
to start, and that wait is no sign of a hung worker. Counted, it had a computer give up
without having thought, and kill the searches of the matches ahead of it. Work still
waiting gives its pool up only when the pool shows no life for ``limit`` seconds (no worker
came up, took work up or answered), or no worker came up in ``start_limit``: the computer
still moves, later, and never waits for ever.

The coach of practice sessions (``cogs.umtali.coach``) works here too, through ``run``: its
hints as a decision is, its reviews of a hand only in a worker (a few seconds of search would
hold the bot's process): when none can take one, the review is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import count
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from umtali.moves import Move
from umtali.players import Player
from umtali.view import PlayerView

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Worker processes by default: two at most, so that a small machine keeps a core for the bot.
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))

#: How much workers lower their priority: when cores are short, the bot's own process (the
#: event loop every match waits on) runs first, and searches take what is left.
WORKER_NICENESS = 10

#: Seconds a piece of work may take in a worker before the worker is taken for hung: many
#: times a review of a hand on a loaded machine (a decision takes a tenth of a second or so).
LIMIT = 60.0
#: Seconds a new pool's first worker may take to come up (start Python, import the game).
START_LIMIT = 60.0
#: Seconds the workers are given to finish the work in hand when the bot closes (a decision
#: takes a second at most): with the close's wait for the interactions under way
#: (``in_flight.DRAIN``), within the 10 s ``docker stop`` gives before it kills.
CLOSE_LIMIT = 3.0


#: In a worker: where it tells the bot that it came up (None) and which work it took up.
_told: Connection | None = None


def _tell(what: int | None) -> None:
    # A message of a few bytes is one write to the pipe, under PIPE_BUF: the workers' messages
    # never mix. A pool given up on closed its end; the work is no one's any more.
    if _told is not None:
        with contextlib.suppress(OSError):
            _told.send(what)


def _worker_started(told: Connection) -> None:
    global _told
    # Where that is not allowed, searches run at the bot's priority.
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    # Ctrl-C in a terminal reaches the whole process group; the bot closes the pool itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    _told = told
    _tell(None)


def _taken_up(ticket: int, work: Callable[..., T], *args: Any) -> T:
    """In a worker: ``work(*args)``, once the bot is told that its time in the queue is over."""
    _tell(ticket)
    return work(*args)


def _exit_with_parent() -> None:
    # A worker holds both ends of the pipe it takes decisions from, so it would wait on it
    # for ever after the bot was killed (by SIGKILL, or for lack of memory).
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(0)


def decide(player: Player, view: PlayerView) -> tuple[Move, Player]:
    """In a worker: the player's move, and the player as choosing it left it."""
    return player.choose(view), player


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now: the pool breaks, and the work other decisions had in it is
    tried again in the next one."""
    for process in list((pool._processes or {}).values()):
        with contextlib.suppress(OSError, ValueError):
            process.kill()


class _Pool:
    """A pool of workers, and what its workers said: when they came up, took work up."""

    def __init__(self, workers: int, loop: asyncio.AbstractEventLoop) -> None:
        # Spawned, not forked: a fork would copy the event loop, its threads and the
        # database connection in whatever state they are in at that moment.
        context = multiprocessing.get_context("spawn")
        self._heard, self._told = context.Pipe(duplex=False)
        self.executor = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_worker_started,
            initargs=(self._told,))
        self.loop = loop
        self.started = loop.time()
        #: When a worker last came up, took work up or answered; None: none came up yet.
        self.alive: float | None = None
        #: The work awaited, by ticket: done with the time a worker took it up.
        self.taken: dict[int, asyncio.Future[float]] = {}
        loop.add_reader(self._heard.fileno(), self._hear)

    def _hear(self) -> None:
        # One message a call (the loop calls again while the pipe has more): a message is
        # written whole, so a readable pipe holds one whole. (Not ``poll()``: with the tests'
        # simulated clock standing still, its wait of no time never ends.)
        try:
            ticket = self._heard.recv()
        except (EOFError, OSError):
            self.loop.remove_reader(self._heard.fileno())
            return
        self.alive = self.loop.time()
        taken = self.taken.get(ticket)
        if taken is not None and not taken.done():
            taken.set_result(self.alive)

    def deadline(self, ticket: int, since: float, limit: float, start_limit: float) -> float:
        """When the work ``ticket`` (sent at ``since``) shows its pool hung."""
        taken = self.taken[ticket]
        if taken.done():
            return taken.result() + limit
        if self.alive is None:
            return self.started + start_limit
        # Waiting behind others' work: a pool that moves is not hung.
        return max(self.alive, since) + limit

    def shut(self) -> None:
        """Stop listening (the workers have ended, or are no one's any more)."""
        if not self._heard.closed:
            if not self.loop.is_closed():
                self.loop.remove_reader(self._heard.fileno())
            self._heard.close()
            self._told.close()


class Unavailable(RuntimeError):
    """No worker could do the work, and it was not to be done in the bot's process."""


class Thinking:
    """A bounded pool of worker processes, started at the first decision sent to it."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        if workers < 1:
            raise ValueError(f"at least one thinking worker is needed, not {workers}")
        self.workers = workers
        self._pool: _Pool | None = None
        self._closed = False
        self._tickets = count()
        #: Decisions tried again after a worker died, and decisions made in this process after
        #: a second failure (counted for the log and the tests).
        self.retries = 0
        self.fallbacks = 0
        #: Decisions under way in the workers.
        self.deciding = 0
        #: Seconds a worker may keep work it took up, and a pool with work waiting may go
        #: without a sign of life, before it is taken for hung (``LIMIT``; tests less).
        self.limit = LIMIT
        #: Seconds before a new pool none of whose workers came up is taken for hung.
        self.start_limit = START_LIMIT

    def _executor(self) -> _Pool:
        if self._pool is None:
            self._pool = _Pool(self.workers, asyncio.get_running_loop())
        return self._pool

    def warm(self) -> None:
        """Start the workers now (they take a few tenths of a second to import the game), so
        that the first decision does not wait for them. Called on the event loop."""
        if self._pool is None and not self._closed:
            pool = self._executor()
            for _ in range(self.workers):
                pool.executor.submit(os.getpid)

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (tests kill one)."""
        pool = self._pool
        return [] if pool is None else list(pool.executor._processes or {})

    async def choose(self, player: Player, view: PlayerView) -> tuple[Move, Player]:
        """The move ``player`` chooses on ``view``, and the player as that left it (``player``
        itself is left as it was)."""

        def here() -> tuple[Move, Player]:
            return player.choose(view), player

        return await self.run(decide, player, view, decision=True, here=here)

    async def run(self, work: Callable[..., T], /, *args: Any, decision: bool = False,
                  here: Callable[[], T] | None = None) -> T:
        """``work(*args)`` in a worker (``work``: a module's function, the arguments small and
        picklable). A worker that dies costs one retry in a new pool; should that fail too, or
        the pool be closed, ``here()`` runs in a thread of this process, or without it
        ``Unavailable`` is raised (work that can be skipped, too long for the bot's process).
        ``decision``: a computer's move, counted in ``deciding``."""
        for attempt in (1, 2):
            if self._closed:
                break
            pool = self._executor()
            self.deciding += decision
            try:
                try:
                    return await self._answer(pool, work, args)
                except asyncio.CancelledError:
                    task = asyncio.current_task()
                    if task is None or task.cancelling():
                        raise  # this task's own cancellation
                    # The pool was given up on (another piece of work found a worker hung)
                    # while this work still waited for a worker: never started, it is tried
                    # again as if its worker had died.
                    raise BrokenProcessPool("the pool was given up before the work "
                                            "started") from None
            except (BrokenProcessPool, OSError, TimeoutError) as e:
                if isinstance(e, TimeoutError):
                    # Hung: its workers are killed (a stopped one too), or the pool keeps it.
                    _kill_workers(pool.executor)
                self._replace(pool)
                if attempt == 1:
                    self.retries += 1
                    log.warning("a thinking worker died (%s); the work is tried again "
                                "in a new pool", e or type(e).__name__)
                elif here is not None:
                    self.fallbacks += 1
                    log.warning("the thinking pool failed twice (%s); the work is done "
                                "in the bot's process", e or type(e).__name__)
            finally:
                self.deciding -= decision
        if here is None:
            raise Unavailable("the thinking pool is closed or failing")
        return await asyncio.to_thread(here)

    async def _answer(self, pool: _Pool, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        """The work's answer from ``pool``; TimeoutError when the pool is found hung."""
        loop = pool.loop
        ticket = next(self._tickets)
        taken = pool.taken[ticket] = loop.create_future()
        since = loop.time()
        answer = loop.run_in_executor(pool.executor, _taken_up, ticket, work, *args)
        try:
            while True:
                left = pool.deadline(ticket, since, self.limit, self.start_limit) - loop.time()
                if left <= 0:
                    raise TimeoutError(
                        f"no answer in {self.limit:g} s" if taken.done()
                        else f"the pool showed no life for {self.limit:g} s"
                        if pool.alive is not None
                        else f"no worker came up in {self.start_limit:g} s")
                # Woken at the deadline as it stands, or when a worker takes the work up (its
                # deadline from then on); news of the pool only moves it later.
                awaited: set[asyncio.Future[Any]] = {answer} if taken.done() else {answer, taken}
                await asyncio.wait(awaited, timeout=left, return_when=asyncio.FIRST_COMPLETED)
                if answer.done():
                    pool.alive = loop.time()
                    return answer.result()
        finally:
            # Given up, or its asker cancelled: work still queued is taken out of the queue.
            answer.cancel()
            taken.cancel()
            del pool.taken[ticket]

    def _replace(self, broken: _Pool) -> None:
        # Several decisions see the same pool break: the first one to get here replaces it.
        if self._pool is broken:
            self._pool = None
            broken.executor.shutdown(wait=False, cancel_futures=True)
            broken.shut()

    async def close(self) -> None:
        """Stop the workers (a decision under way is waited for: a few tenths of a second;
        ``CLOSE_LIMIT`` at most, then they are killed: a hung one would hold the bot's exit)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        ending = asyncio.ensure_future(
            asyncio.to_thread(pool.executor.shutdown, wait=True, cancel_futures=True))
        try:
            try:
                await asyncio.wait_for(asyncio.shield(ending), CLOSE_LIMIT)
            except TimeoutError:
                log.warning("the thinking workers did not stop in %g s; they are killed",
                            CLOSE_LIMIT)
                _kill_workers(pool.executor)
                await ending
        finally:
            pool.shut()
