"""Who stops whose challenges: a member no longer challenged (nor asked for a rematch) by
another, on any server, until they lift it. Read in the transaction that makes a challenge
(``ChallengeQueries._check_challenge_limits``), never kept in memory: a stop saved through
any process holds at once everywhere."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from data.db import Database, Tx
from data.models import Challenge, challenge_of

#: A withdrawal still owed is first tried again this long after the stop (its own edits done
#: by then); each tick's try sets the next twice as far (1, 2, 4 … minutes).
WITHDRAWN_AFTER: Final = 60.0
#: The ticks' tries of a withdrawal: about an hour of them, as the delivery's ``TRIES`` (a
#: message failing that long is taken as lost; its buttons stay, and a click on them is
#: answered "no longer open" and tries once more).
WITHDRAWN_TRIES: Final = 7
#: ``challenges.unsaid``: owed, for the ticks to try (in their index); given up by them, owed
#: to a click on its buttons alone (out of the index: fix170), ``said_after`` NULL; 0, said.
OWED: Final = 1
GIVEN_UP: Final = 2


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
        refused its edit for good): no longer owed (given up by the ticks, ``GIVEN_UP``, too:
        a click said it)."""
        async with self.db.transaction() as c:
            await c.execute("UPDATE challenges SET unsaid = 0 WHERE id = ? AND unsaid <> 0",
                            (challenge_id,))

    async def claim_withdrawals(self, now: float, limit: int,
                                skip: Collection[int] = ()) -> list[Challenge]:
        """Challenges withdrawn by a stop whose messages are still to say so (their edits
        failed for now, or the bot stopped first), due to be tried at ``now``, the one due the
        longest first, at most ``limit`` (what the caller's edits can take at once) and none
        of ``skip`` (its edits under way): taken by this process's tick for this try, in the
        statement that finds them (review160: two processes' ticks both edited them). The try
        is counted as it is taken (``said_tries``), and the next one set, twice as far each
        time, so that a failure writes nothing and a process dying mid-edit loses one try.
        The last's failure gives it up (``give_up_withdrawal``); the last lost (a restart, a
        crash) gets one more, the same while later (review163: given up in the claim, a try
        never made was the last). One whose message's id the database never got (only its
        poster may know it: ``challenge_posts.save_unsaved``) is moved on to its expiry, no
        try counted, instead of being found again at every tick until then."""
        unknown = "message_id IS NULL AND expires_at > ?"
        later = " ".join(f"WHEN said_tries = {n} THEN ?" for n in range(WITHDRAWN_TRIES - 1))
        skipped = f"AND id NOT IN ({', '.join('?' * len(skip))}) " if skip else ""
        async with self.db.transaction() as c:
            # Its conditions again outside the sub-select: a process taking it meanwhile
            # (PostgreSQL re-reads the row it waited for) leaves it to that one.
            rows = await c.fetchall(
                f"UPDATE challenges SET "
                f"said_tries = CASE WHEN {unknown} THEN said_tries ELSE said_tries + 1 END, "
                f"said_after = CASE WHEN {unknown} THEN expires_at {later} ELSE ? END "
                f"WHERE unsaid = {OWED} AND said_after <= ? AND id IN (SELECT id FROM "
                f"challenges WHERE unsaid = {OWED} AND said_after <= ? {skipped}"
                f"ORDER BY said_after LIMIT ?) RETURNING *",
                (now, now, *(now + WITHDRAWN_AFTER * 2 ** n for n in range(WITHDRAWN_TRIES)),
                 now, now, *skip, limit))
            return sorted((challenge_of(row) for row in rows), key=lambda ch: ch.id)

    async def give_up_withdrawal(self, challenge_id: int, tries: int) -> bool:
        """The ticks' last try of a withdrawal (``tries``, ``WITHDRAWN_TRIES`` or more) failed:
        out of their index, owed to a click on its buttons alone. False if it was said, or
        tried again, meanwhile (another process: only one logs it given up)."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE challenges SET unsaid = {GIVEN_UP}, said_after = NULL WHERE id = ? "
                f"AND unsaid = {OWED} AND said_tries = ?", (challenge_id, tries))
            return cur.rowcount == 1

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
