"""The thinking pool in trouble: a worker that hangs (stopped, swapped out, stuck) is given up
on in bounded time and costs one retry, as a dead one does; the match never waits for ever."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from cogs.umtali.thinking import Thinking, Unavailable
from tests.test_computer_pool import _a_discard, _gone
from umtali.ai import HardPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)


async def test_a_hung_worker_costs_one_retry_in_bounded_time() -> None:
    hard, view = _a_discard(5)
    thinking = Thinking(workers=1)
    # (the retry's new worker starts and imports the game within it: on a loaded 2-core
    # machine 3 s was too little, and the retry fell back too)
    thinking.limit = 6.0
    pid = 0
    try:
        await thinking.choose(HardPlayer(), view)  # the worker is up and has imported the game
        [pid] = thinking.worker_pids()
        os.kill(pid, signal.SIGSTOP)  # it hangs: it neither answers nor dies
        started = time.monotonic()
        move, _ = await asyncio.wait_for(thinking.choose(hard, view), 40)
        assert time.monotonic() - started < 30
        assert (thinking.retries, thinking.fallbacks) == (1, 0)
        assert move == hard.choose(view)
        assert pid not in thinking.worker_pids()
        deadline = time.monotonic() + 10
        while not _gone(pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert _gone(pid)  # the hung worker is not left behind
    finally:
        if pid and not _gone(pid):
            os.kill(pid, signal.SIGKILL)
        await thinking.close()


async def test_work_that_hangs_twice_and_may_be_skipped_is_given_up() -> None:
    thinking = Thinking(workers=1)
    thinking.limit = 2.0
    try:
        with pytest.raises(Unavailable):
            await asyncio.wait_for(thinking.run(time.sleep, 3600), 40)
        assert thinking.retries == 1
    finally:
        await thinking.close()


async def test_closing_with_a_hung_worker_ends_in_bounded_time() -> None:
    thinking = Thinking(workers=1)
    await thinking.run(os.getpid)  # the worker is up
    [pid] = thinking.worker_pids()
    try:
        working = asyncio.ensure_future(thinking.run(time.sleep, 1))
        while not thinking._pool or not thinking._pool.executor._pending_work_items:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        os.kill(pid, signal.SIGSTOP)  # stopped with the work in hand
        started = time.monotonic()
        await asyncio.wait_for(thinking.close(), 40)
        assert time.monotonic() - started < 20
        working.cancel()
        await asyncio.gather(working, return_exceptions=True)
        deadline = time.monotonic() + 10
        while not _gone(pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert _gone(pid)
    finally:
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)
