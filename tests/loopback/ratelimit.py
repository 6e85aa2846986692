"""Discord's global rate limit, per bot token: at most so many requests in any one second.

Discord allows a bot 50 a second, counted over every process using its token; the loopback
takes a smaller number so that a test reaches it. Over it, Discord answers 429 with
``X-RateLimit-Global`` and ``X-RateLimit-Scope: global``. Answers to interactions are not
bound by it (they are counted per interaction token), so the loopback does not count them.
"""

from __future__ import annotations

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

    def retry_after(self, path: str) -> float | None:
        """Seconds to wait when this request is over the limit (it is refused); else None."""
        if path.startswith(EXEMPT):
            return None
        now = self.clock()
        self.arrivals.append(now)
        if not self.seconds or now >= self._started + 1.0:
            self._started, self._passed = now, 0
            self.seconds.append(0)
        self.seconds[-1] += 1
        if self._passed >= self.per_second:
            self.refused += 1
            return max(0.001, self._started + 1.0 - now)
        self._passed += 1
        return None

    def start_second(self) -> None:
        """Count a second from now, before any call (the test knows when calls may start)."""
        self._started, self._passed = self.clock(), 0
        self.seconds.append(0)

    def busiest_second(self) -> int:
        """The most requests that arrived in one second counted (refused ones included)."""
        return max(self.seconds, default=0)
