"""Public posts under way in this process (a board or stats in a channel, a match's table
posted again), by key: a member held back by one waits for its outcome before being told it
was posted. Told so at once, they were told a falsehood whenever that post then failed (the
bot's permission taken away, Discord failing): nothing was posted, and they were sent away.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Final

#: Seconds a member held back waits for the post under way: longer than a post takes when
#: Discord is well (deferred past ``in_time.DEFER_AFTER``), short enough not to keep them long.
OUTCOME_WAIT: Final = 8.0


class UnderWay:
    """The posts under way here, each with the future of its outcome (True: posted)."""

    def __init__(self) -> None:
        self._posts: dict[int, asyncio.Future[bool]] = {}

    @contextlib.contextmanager
    def posting(self, key: int) -> Iterator[None]:
        """A post under ``key`` for the length of the block: posted if it ends, failed if it
        raises (cancelled too)."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._posts[key] = done
        try:
            yield
        except BaseException:
            done.set_result(False)
            raise
        else:
            done.set_result(True)
        finally:
            if self._posts.get(key) is done:
                del self._posts[key]

    def busy(self, key: int) -> bool:
        """Whether a post under ``key`` is under way here."""
        return key in self._posts

    def pending(self, key: int) -> asyncio.Future[bool] | None:
        """The outcome of the post under way under ``key`` (None if none is here), taken as a
        member is told it is on its way: looked up later (after their answer went, a request
        to Discord), it may have ended and be gone, or be another post's."""
        return self._posts.get(key)

    async def outcome(self, key: int) -> bool | None:
        """Whether the post under way under ``key`` was made, once it is; None if none is under
        way here (another process's, or none), or it has not ended in ``OUTCOME_WAIT``."""
        done = self._posts.get(key)
        if done is None:
            return None
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(asyncio.shield(done), OUTCOME_WAIT)
        return None


async def failed(done: asyncio.Future[bool]) -> bool:
    """Whether the post whose outcome is ``done`` (``UnderWay.pending``) failed, once it
    ended, however long it takes: a member told it was on its way, past the wait, is told then
    if it failed."""
    return not await asyncio.shield(done)
