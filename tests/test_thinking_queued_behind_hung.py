"""Work queued behind a hung worker: when the hung pool is given up (its workers killed, the
pool replaced), the work still waiting in it for a worker was never started, and is tried in
the new pool like work whose worker died; it is not cancelled (a computer's turn, a hint or a
review lost without a word, and a ``CancelledError`` from a task nobody cancelled)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from cogs.umtali.in_flight import DRAIN
from cogs.umtali.thinking import CLOSE_LIMIT, Thinking
from tests.test_computer_pool import _gone

pytestmark = pytest.mark.simcord(settle_timeout=30)


async def test_work_queued_behind_a_hung_worker_is_done_in_the_next_pool() -> None:
    thinking = Thinking(workers=1)
    thinking.limit = 2.0
    await thinking.run(os.getpid)  # the worker is up
    [pid] = thinking.worker_pids()
    try:
        os.kill(pid, signal.SIGSTOP)  # it hangs: it neither answers nor dies
        # Two pieces of work fill the pool's queue for the one worker; a third waits behind
        # them, and is still waiting when the first is given up on.
        first = [asyncio.ensure_future(thinking.run(os.getpid)) for _ in range(2)]
        await asyncio.sleep(0.5)
        started = time.monotonic()
        behind = asyncio.ensure_future(thinking.run(os.getpid))
        done = await asyncio.wait_for(asyncio.gather(*first, behind, return_exceptions=True),
                                      40)
        assert time.monotonic() - started < 30
        for result in done:
            assert isinstance(result, int) and result != pid, done
    finally:
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)
        await thinking.close()


async def test_work_whose_asker_is_cancelled_is_not_tried_again() -> None:
    thinking = Thinking(workers=1)
    try:
        asked = asyncio.ensure_future(thinking.run(time.sleep, 5))
        await asyncio.sleep(0.5)
        asked.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asked
        assert thinking.retries == 0
    finally:
        await thinking.close()


async def test_a_hung_worker_holds_a_close_only_so_long() -> None:
    """A worker hung with work in hand at the bot's close is killed after ``CLOSE_LIMIT``:
    with the close's wait for the interactions under way (``DRAIN``), the whole stop stays
    within the 10 s ``docker stop`` gives before it kills the process."""
    assert DRAIN + CLOSE_LIMIT <= 9.5
    thinking = Thinking(workers=1)
    await thinking.run(os.getpid)  # the worker is up
    [pid] = thinking.worker_pids()
    try:
        asked = asyncio.ensure_future(thinking.run(time.sleep, 5))
        await asyncio.sleep(0.3)
        os.kill(pid, signal.SIGSTOP)  # hung with the work in hand
        started = time.monotonic()
        await thinking.close()
        took = time.monotonic() - started
        assert CLOSE_LIMIT - 0.5 < took < CLOSE_LIMIT + 2, took
        assert _gone(pid)
        asked.cancel()
        await asyncio.gather(asked, return_exceptions=True)
    finally:
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)
