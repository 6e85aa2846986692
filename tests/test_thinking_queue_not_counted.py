"""The thinking limit counts from when a worker takes the work up: on a busy bot, work waits in
the pool's queue behind other matches' searches (or for the workers to start), and that wait
is no sign of a hung worker. Counted, a computer gave up (and killed the searches ahead of it)
without having thought. A pool that never comes up is still given up, in bounded time."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from cogs.umtali.thinking import Thinking
from tests.test_computer_pool import _gone

pytestmark = pytest.mark.simcord(settle_timeout=30)


def _here() -> float:
    raise AssertionError("decided in the bot's process: the pool was given up")


async def test_time_waiting_in_the_queue_is_not_thinking_time() -> None:
    thinking = Thinking(workers=1)
    thinking.limit = 2.0
    try:
        await thinking.run(os.getpid)  # the worker is up
        [pid] = thinking.worker_pids()
        # Four searches of a second each for the one worker: the last waits three seconds
        # in the queue, more than the limit, though none takes more than half of it.
        asked = [thinking.run(time.sleep, 1.0, decision=True, here=_here) for _ in range(4)]
        await asyncio.wait_for(asyncio.gather(*asked), 60)
        assert (thinking.retries, thinking.fallbacks) == (0, 0)
        assert thinking.worker_pids() == [pid]  # nothing was killed
    finally:
        await thinking.close()


async def test_a_new_pool_starting_is_not_thinking_time() -> None:
    # A worker takes a second or more to start Python and import the game (six on a loaded
    # machine): far more than this limit, which the work itself needs none of.
    thinking = Thinking(workers=1)
    thinking.limit = 0.3
    try:
        answer = await asyncio.wait_for(thinking.run(os.getpid), 90)
        assert answer in thinking.worker_pids()
        assert thinking.retries == 0
    finally:
        await thinking.close()


class _FirstPoolStopped(Thinking):
    """Its first pool (whose worker is stopped) given up after a second; any pool after it
    given more than a worker takes to come up on a loaded machine (six seconds seen). One
    limit for both was 15 s, waited out in full."""

    @property
    def start_limit(self) -> float:
        return 1.0 if self.retries == 0 else 15.0

    @start_limit.setter
    def start_limit(self, seconds: float) -> None:
        """(``Thinking.__init__``'s default: not this test's)"""


async def test_a_pool_whose_worker_never_comes_up_is_given_up() -> None:
    thinking = _FirstPoolStopped(workers=1)
    thinking.limit = 2.0
    stopped = 0
    try:
        asked = asyncio.ensure_future(thinking.run(os.getpid))
        while not thinking.worker_pids():
            await asyncio.sleep(0.001)
        [stopped] = thinking.worker_pids()
        os.kill(stopped, signal.SIGSTOP)  # starting: it never comes up
        started = time.monotonic()
        answer = await asyncio.wait_for(asked, 90)
        assert time.monotonic() - started < 60
        assert thinking.retries == 1
        assert isinstance(answer, int) and answer != stopped
    finally:
        if stopped and not _gone(stopped):
            os.kill(stopped, signal.SIGKILL)
        await thinking.close()
