"""Who stops whose challenges: a member no longer challenged (nor asked for a rematch) by
another, on any server, until they lift it. Read in the transaction that makes a challenge
(``ChallengeQueries._check_challenge_limits``), never kept in memory: a stop saved through
any process holds at once everywhere."""

from __future__ import annotations

from typing import Final

from data.db import Database, Tx
from data.models import Challenge, challenge_of

#: A withdrawal still owed is first tried again this long after the stop (its own edits done
#: by then); each failure for now doubles the wait (1, 2, 4 … minutes).
WITHDRAWN_AFTER: Final = 60.0
#: Failed tries after which the ticks no longer try a withdrawal: about an hour of them, as the
#: delivery's ``TRIES`` (a message failing that long is taken as lost; its buttons stay, and a
#: click on them is answered "no longer open" and tries once more).
WITHDRAWN_TRIES: Final = 7


class StopQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def stop_challenges(self, user_id: int, stopped_id: int,
                              now: float) -> list[Challenge]:
        """``user_id`` takes no more challenges from ``stopped_id`` (once is enough: a second
        stop keeps the first's date), and ``stopped_id``'s challenges to them still open, on
        every server, are withdrawn in the same transaction (fix161: one left open elsewhere
        could still be accepted): those, to say so on their messages, owed till then
        (``unsaid``: ``withdrawal_said``). An accept racing the stop finds its challenge
        closed, or wins, and the stop leaves its match alone."""
        async with self.db.transaction() as c:
            # In turn with a challenge to ``user_id`` being made (``create_challenge``): that
            # one is saved first, or finds this stop.
            await c.serialise([user_id])
            await c.execute(
                "INSERT INTO challenge_stops (user_id, stopped_id, since) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING", (user_id, stopped_id, now))
            # As a withdrawal (``close_challenge``): its seed and salt go, never to be shown.
            rows = await c.fetchall(
                "UPDATE challenges SET status = 'cancelled', seed = '', salt = '', "
                "closed_at = ?, unsaid = 1, said_after = ?, said_tries = 0 "
                "WHERE challenger_id = ? AND opponent_id = ? AND "
                "status = 'open' AND computer_level IS NULL RETURNING *",
                (now, now + WITHDRAWN_AFTER, stopped_id, user_id))
            return sorted((challenge_of(row) for row in rows), key=lambda ch: ch.id)

    async def withdrawal_said(self, challenge_id: int) -> None:
        """The message of a challenge a stop withdrew says so now (or never will: Discord
        refused its edit for good): no longer owed."""
        async with self.db.transaction() as c:
            await c.execute("UPDATE challenges SET unsaid = 0 WHERE id = ? AND unsaid = 1",
                            (challenge_id,))

    async def withdrawal_failed(self, challenge_id: int, now: float) -> bool:
        """The edit saying ``challenge_id``'s withdrawal failed for now at ``now``: tried again
        later, twice as long as last time, or, the ``WITHDRAWN_TRIES``-th failure, given up
        (True, once: the caller logs it): no tick tries it again, a click on its buttons
        still does (``unsaid`` kept). Counted only when due (``said_after`` past): the
        stop's own edit and a click's are extra tries, and of processes failing the same
        round only the first counts it."""
        async with self.db.transaction() as c:
            row = await c.fetchone(
                "SELECT said_tries FROM challenges WHERE id = ? AND unsaid = 1 AND "
                "said_after <= ?", (challenge_id, now))
            if row is None:
                return False
            tries = int(row["said_tries"]) + 1
            given_up = tries >= WITHDRAWN_TRIES
            # (the tries read: another process counting this round first leaves it alone)
            # Given up: no time left to try it (NULL), owed still to a click on its buttons.
            cur = await c.execute(
                "UPDATE challenges SET said_tries = ?, said_after = ? "
                "WHERE id = ? AND unsaid = 1 AND said_tries = ?",
                (tries, None if given_up else now + WITHDRAWN_AFTER * 2 ** (tries - 1),
                 challenge_id, tries - 1))
            return given_up and cur.rowcount == 1

    async def unsaid_withdrawals(self, now: float, limit: int) -> list[Challenge]:
        """Challenges withdrawn by a stop whose messages are still to say so (their edits
        failed for now, or the bot stopped first), due to be tried at ``now``: the one due
        the longest first, so that those failing for a while move behind the newer."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE unsaid = 1 AND said_after <= ? "
            "ORDER BY said_after LIMIT ?", (now, limit))
        return [challenge_of(r) for r in rows]

    async def lift_stop(self, user_id: int, stopped_id: int) -> bool:
        """``stopped_id`` may challenge ``user_id`` again; False if they were not stopped."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "DELETE FROM challenge_stops WHERE user_id = ? AND stopped_id = ?",
                (user_id, stopped_id))
            return cur.rowcount == 1

    async def stopped_by(self, user_id: int) -> list[int]:
        """The members ``user_id`` takes no challenges from, the first stopped first."""
        rows = await self.db.fetchall(
            "SELECT stopped_id FROM challenge_stops WHERE user_id = ? "
            "ORDER BY since, stopped_id", (user_id,))
        return [int(r["stopped_id"]) for r in rows]


async def stopped(c: Tx, user_id: int, stopped_id: int) -> bool:
    """Whether ``user_id`` stopped ``stopped_id``'s challenges (read in ``c``)."""
    row = await c.fetchone(
        "SELECT 1 AS one FROM challenge_stops WHERE user_id = ? AND stopped_id = ?",
        (user_id, stopped_id))
    return row is not None
