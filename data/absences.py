"""The store's queries on a player out of reach in a match with no clock: since when the bot
first found them so (``matches.gone_since0``/``1``), kept until they are found back
(``data.store.Store`` has them)."""

from __future__ import annotations

from data.db import Database


class AbsenceQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def gone_since(self, match_id: int, seat: int, now: float) -> float | None:
        """Since when the seat's player has been out of reach: ``now`` if not found so
        before, else the first time saved (by any process, before any restart). None: no
        such match."""
        async with self.db.transaction() as c:
            await c.execute(f"UPDATE matches SET gone_since{seat} = ? WHERE id = ? "
                            f"AND gone_since{seat} IS NULL", (now, match_id))
            row = await c.fetchone(f"SELECT gone_since{seat} FROM matches WHERE id = ?",
                                   (match_id,))
        return None if row is None else float(row[f"gone_since{seat}"])

    async def found_back(self, match_id: int, seat: int) -> None:
        """The seat's player found in reach: the time they were first found gone is
        forgotten, a later absence counted from its own start."""
        # Read first: nothing saved (as mostly), no write, and no wait for the writer's turn.
        row = await self.db.fetchone(f"SELECT gone_since{seat} FROM matches WHERE id = ?",
                                     (match_id,))
        if row is None or row[f"gone_since{seat}"] is None:
            return
        async with self.db.transaction() as c:
            await c.execute(f"UPDATE matches SET gone_since{seat} = NULL WHERE id = ? "
                            f"AND gone_since{seat} IS NOT NULL", (match_id,))
