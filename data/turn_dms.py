"""The store's queries on the turn DMs standing by correspondence (``turn_dm0_id``,
``turn_dm1_id``): one at most per seat, whichever process sent it deleting it later
(``cogs.umtali.turn_dms``)."""

from __future__ import annotations

from data.db import Database


class TurnDmQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def swap_turn_dm(self, match_id: int, seat: int,
                           message_id: int) -> tuple[int | None, int | None]:
        """``message_id`` is the seat's turn DM standing from now on: the seat's DM channel as
        saved, and the turn DM that stood before it (None: none, or this one)."""
        async with self.db.transaction() as c:
            row = await c.fetchone(f"SELECT dm{seat}_channel_id AS ch, turn_dm{seat}_id AS dm "
                                   "FROM matches WHERE id = ?", (match_id,))
            if row is None:
                return None, None
            await c.execute(f"UPDATE matches SET turn_dm{seat}_id = ? WHERE id = ?",
                            (message_id, match_id))
            before = row["dm"]
            return row["ch"], (None if before in (None, message_id) else int(before))

    async def take_turn_dm(self, match_id: int, seat: int,
                           only: int | None = None) -> tuple[int | None, int | None]:
        """The seat's turn DM standing (``only``: if it is that one) is none from now on: the
        seat's DM channel as saved, and that DM (None: none stood)."""
        row = await self.db.fetchone(f"SELECT dm{seat}_channel_id AS ch, turn_dm{seat}_id AS dm "
                                     "FROM matches WHERE id = ?", (match_id,))
        if row is None or row["dm"] is None or (only is not None and row["dm"] != only):
            return None, None
        async with self.db.transaction() as c:
            # Cleared only if it is still the one read: another process's newer one stands.
            cur = await c.execute(f"UPDATE matches SET turn_dm{seat}_id = NULL "
                                  f"WHERE id = ? AND turn_dm{seat}_id = ?",
                                  (match_id, row["dm"]))
            if cur.rowcount != 1:
                return None, None
        return row["ch"], int(row["dm"])
