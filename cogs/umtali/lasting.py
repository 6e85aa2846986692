"""A failure tried again every second while its cause lasts (the database out of reach, or
locked by another writer, as the timers renew the leases): one WARNING when it begins, quiet
(DEBUG) while it lasts, one INFO when it is over. A WARNING a second would bury what else the
log says (PostgreSQL out of reach for an hour: 3,600 lines)."""

from __future__ import annotations

import logging
import time

from cogs.umtali.failures import GONE, PASSING
from data.failing import failing_for_now

#: Seconds without a failure after which the next one begins a new run (said again), even if
#: no success was seen meanwhile (one that went through by another way).
GAP = 30.0


class Lasting:
    """The run of failures of one thing tried again, said on ``log``: ``what`` failed ("the
    leases could not be renewed"), and ``again`` when it works again ("the leases are renewed
    again")."""

    def __init__(self, log: logging.Logger, what: str, again: str) -> None:
        self.log, self.what, self.again = log, what, again
        #: When the run of failures began (monotonic), and how many there were; None: none.
        self.since: float | None = None
        self.failures = 0
        #: When the last failure was (monotonic).
        self.last = 0.0
        #: The kinds of failure warned of in this run (the database's, Discord's, a bug's
        #: class): one of another kind is no part of it (a bug raised while the database is
        #: away, at every check from then on), and is warned of in its turn, traceback and all.
        self.said: set[str] = set()

    def failed(self, error: BaseException) -> None:
        now = time.monotonic()
        if self.since is not None and now - self.last > GAP:
            # Its end was not seen (it worked elsewhere): this is a run of its own.
            self.since, self.failures = None, 0
        self.failures += 1
        self.last = now
        database = failing_for_now(error)
        cause = "the database failed" if database else "it failed"
        passing = database or isinstance(error, (*PASSING, *GONE))
        # The database's failures are one kind, Discord's another; a bug is its own class.
        kind = "database" if database else "discord" if passing else \
            f"{error.__class__.__module__}.{error.__class__.__qualname__}"
        if self.since is None or kind not in self.said:
            if self.since is None:
                self.since, self.said = now, set()
            self.said.add(kind)
            # The traceback of a cause not the database's nor Discord's: a bug, to be found.
            self.log.warning("%s: %s (%s: %s); tried again, quietly, and said here when it "
                             "works again", self.what, cause, error.__class__.__name__,
                             error, exc_info=None if passing else error)
        else:
            self.log.debug("%s: %s again (%s: %s; failure %d)", self.what, cause,
                           error.__class__.__name__, error, self.failures)

    def worked(self) -> None:
        if self.since is None:
            return
        self.log.info("%s, after %.0f s and %d failure(s)", self.again,
                      time.monotonic() - self.since, self.failures)
        self.since, self.failures = None, 0
        self.said = set()
