"""asyncpg's pool in the log. Its one idle connection lost (PostgreSQL restarting, out of
reach), the pool connects again and again (1, 2, 4... up to 60 s apart), and logs each failure
as a WARNING with its traceback: some 30 lines through asyncio's socket calls, with no bug to
find, every minute for as long as the server is away. Here the database failing for now
(``failing_for_now``) is one line, said once in ``SAY_EVERY`` seconds (DEBUG between); any
other failure (a bug, a setting) keeps its WARNING and its traceback."""

from __future__ import annotations

import logging
import time

from data.failing import failing_for_now

#: Seconds between two WARNINGs of the pool failing to connect again.
SAY_EVERY = 600.0
#: asyncpg's logger of its pool.
POOL_LOGGER = "asyncpg.pool"


class PoolReconnects(logging.Filter):
    def __init__(self) -> None:
        super().__init__()
        #: When the last WARNING was let through (monotonic); None: never.
        self.said: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if record.levelno != logging.WARNING or error is None or not failing_for_now(error):
            return True
        said = record.getMessage()
        record.msg = ("the database failed, so asyncpg says: %s (%s: %s); it tries again, "
                      "said here once in %d minutes at most")
        record.args = (said, error.__class__.__name__, error, int(SAY_EVERY // 60))
        record.exc_info, record.exc_text = None, None
        now = time.monotonic()
        if self.said is not None and now - self.said < SAY_EVERY:
            # A DEBUG line now: dropped unless the log takes DEBUG (a handler would write it
            # whatever its level says, the logger's level being checked already).
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        self.said = now
        return True


def quiet_pool_reconnects() -> None:
    """``PoolReconnects`` on asyncpg's pool logger, once."""
    pool_log = logging.getLogger(POOL_LOGGER)
    if not any(isinstance(f, PoolReconnects) for f in pool_log.filters):
        pool_log.addFilter(PoolReconnects())
