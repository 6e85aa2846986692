"""What the timer tick starts and does not wait for: a turn's warning, the time-up question,
the turns' DMs sent again. Each goes to Discord, whose answer may take up to ``REST_TIMEOUT`` a
try (and a seat's DM panels go one at a time, so a warning may wait for one on its way), while
the tick must come round every second and renew this process's leases every few: held up past
a lease, other processes would take its matches. (Expired challenges' edits have a queue of
their own, bounded: ``challenge_expiry.ExpiryEdits``.)"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Beside:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        #: Set as it closes: work started after (a command answered as the bot stops) is
        #: not run, or it would outlive the close, never cancelled.
        self.closed = False

    def start(self, work: Coroutine[Any, Any, None], match_id: int | None, what: str) -> None:
        """Run ``work`` (``what``, of match ``match_id`` if one) beside the caller; a failure
        is a warning in the log, as it was in the tick."""
        if self.closed:
            work.close()
            return
        said = what if match_id is None else f"match {match_id}: the {what}"
        task = asyncio.create_task(self._run(work, said),
                                   name=f"umtali-{what.replace(' ', '-')}-{match_id or ''}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        # Cancelled before it began (the bot stopping), ``work`` was never awaited: closed.
        task.add_done_callback(lambda _: work.close())

    @staticmethod
    async def _run(work: Coroutine[Any, Any, None], said: str) -> None:
        try:
            await work
        except Exception as e:
            log.warning("%s could not be sent (%s: %s)", said, e.__class__.__name__, e)

    async def idle(self) -> None:
        """Wait until everything started so far is done (a flush, tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
