"""A match that fails to come into play at every check, for a reason no wait mends (a bug, a
row no code reads, not the database failing for now): its players are held in it for ever,
every command apologising. The warnings (``Claims._could_not_take``) come every ten minutes
and read as passing; once it has failed ``STUCK_AFTER`` times in a row, the log says once, at
ERROR, that someone must act, and how (``/umtali-admin end-match``).

The bring-in itself is not given up: let go, an unsettled claim's lease would lapse and the
match be claimed anew, its turn resumed a second time; kept, it comes in by itself once the
cause is mended (a fixed release).
"""

from __future__ import annotations

import logging

from data.failing import failing_for_now

log = logging.getLogger(__name__)

#: Failures in a row (the database's aside) before the ERROR: half a minute of checks.
STUCK_AFTER = 30


class Stuck:
    def __init__(self) -> None:
        #: Failures in a row by match (the database's not counted), and those told at ERROR.
        self._failures: dict[int, int] = {}
        self._told: set[int] = set()

    def failed(self, match_id: int, e: Exception) -> None:
        if failing_for_now(e):
            return
        count = self._failures[match_id] = self._failures.get(match_id, 0) + 1
        if count >= STUCK_AFTER and match_id not in self._told:
            self._told.add(match_id)
            log.error("match %d has failed to come into play %d times in a row (%s: %s): its "
                      "players cannot play, resign or start another match on its server until "
                      "the cause is mended, or a server admin ends it with /umtali-admin "
                      "end-match", match_id, count, e.__class__.__name__, e)

    def forget(self, match_id: int) -> None:
        """Brought in at last, or ended (or no longer this process's to bring in)."""
        self._failures.pop(match_id, None)
        self._told.discard(match_id)

    def tracked(self, match_id: int) -> bool:
        return match_id in self._failures or match_id in self._told
