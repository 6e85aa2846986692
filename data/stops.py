"""Who stops whose challenges: a member no longer challenged (nor asked for a rematch) by
another, on any server, until they lift it. Read in the transaction that makes a challenge
(``ChallengeQueries._check_challenge_limits``), never kept in memory: a stop saved through
any process holds at once everywhere."""

from __future__ import annotations

from data.db import Database, Tx
from data.models import Challenge, challenge_of


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
                "closed_at = ?, unsaid = 1 WHERE challenger_id = ? AND opponent_id = ? AND "
                "status = 'open' AND computer_level IS NULL RETURNING *",
                (now, stopped_id, user_id))
            return sorted((challenge_of(row) for row in rows), key=lambda ch: ch.id)

    async def withdrawal_said(self, challenge_id: int) -> None:
        """The message of a challenge a stop withdrew says so now (or never will: Discord
        refused its edit for good): no longer owed."""
        async with self.db.transaction() as c:
            await c.execute("UPDATE challenges SET unsaid = 0 WHERE id = ? AND unsaid = 1",
                            (challenge_id,))

    async def unsaid_withdrawals(self, before: float, limit: int) -> list[Challenge]:
        """Challenges withdrawn by a stop before ``before`` whose messages are still to say
        so (their edits failed for now, or the bot stopped first), the oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE unsaid = 1 AND closed_at <= ? "
            "ORDER BY closed_at LIMIT ?", (before, limit))
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
