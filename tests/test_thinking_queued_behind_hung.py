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

from cogs.umtali.thinking import Thinking
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
