"""Discord's global rate limit, per bot token: at most so many requests in any one second.

Discord allows a bot 50 a second, counted over every process using its token; the loopback
takes a smaller number so that a test reaches it. Over it, Discord answers 429 with
``X-RateLimit-Global`` and ``X-RateLimit-Scope: global``. Answers to interactions are not
bound by it (they are counted per interaction token), so the loopback does not count them.

Discord's servers see a call when it arrives; the loopback, when its event loop gets round to
it. On a busy machine its process may not run for a tenth of a second, and a second counted
from a call handled that late ends that late too: the next second's calls, sent on time (the
proxy waits 50 ms past its own second), fell into it and were refused. A call is taken to have
arrived when the loop was last seen running before it (``Awake``): the earliest it may have.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

#: Paths of the answers to interactions: the callback, and the follow-ups by its webhook.
EXEMPT = ("/interactions/", "/webhooks/")


class GlobalLimit:
    """Counts every request of the bot's token, and refuses those over the limit.

    A second is counted from the first request after the last one ended, as Discord's own
    library for bots (@discordjs/rest) counts it; its seconds and Discord's then fall in step.
    """

    def __init__(self, per_second: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.clock = clock
        #: When each counted request arrived, refused or not.
        self.arrivals: list[float] = []
        #: How many requests arrived in each second counted, refused ones included.
        self.seconds: list[int] = []
        self.refused = 0
        self._started = -1.0
        self._passed = 0

    def retry_after(self, path: str, arrived: float | None = None) -> float | None:
        """Seconds to wait when this request is over the limit (it is refused); else None.
        ``arrived``: the earliest it may have arrived (on ``clock``), when before now."""
        if path.startswith(EXEMPT):
            return None
        now = self.clock()
        self.arrivals.append(now)
        if not self.seconds or now >= self._started + 1.0:
            # The second starts when its first call may have arrived, after the last one.
            started = now if arrived is None else min(now, arrived)
            if self.seconds:
                started = max(started, self._started + 1.0)
            self._started, self._passed = started, 0
            self.seconds.append(0)
        self.seconds[-1] += 1
        if self._passed >= self.per_second:
            self.refused += 1
            return max(0.001, self._started + 1.0 - now)
        self._passed += 1
        return None

    def busiest_second(self) -> int:
        """The most requests that arrived in one second counted (refused ones included)."""
        return max(self.seconds, default=0)


class Awake:
    """When the loopback's event loop was last seen running (``seen``): a call handled after a
    stall may have arrived at any moment since. Looked at often only while ``wanted()``."""

    EVERY = 0.005
    IDLE = 0.1

    def __init__(self, wanted: Callable[[], bool], clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.wanted = wanted
        self.clock = clock
        self.seen = clock()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            self.seen = self.clock()
            await asyncio.sleep(self.EVERY if self.wanted() else self.IDLE)
