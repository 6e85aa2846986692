"""The store's queries on a server as a whole: what the bot has going on in it, and ending
that when the bot was removed from it (``data.store.Store`` has them all)."""

from __future__ import annotations

from data.db import Database


class ServerQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def servers_in_play(self) -> set[int]:
        """The servers with a match in play or a challenge open: those whose removal of the
        bot would leave something behind."""
        rows = await self.db.fetchall(
            "SELECT guild_id FROM matches WHERE status = 'active' UNION "
            "SELECT guild_id FROM challenges WHERE status = 'open'")
        return {int(r["guild_id"]) for r in rows}

    async def active_matches_in(self, guild_id: int) -> list[int]:
        """The ids of the server's matches in play."""
        rows = await self.db.fetchall(
            "SELECT id FROM matches WHERE status = 'active' AND guild_id = ? ORDER BY id",
            (guild_id,))
        return [int(r["id"]) for r in rows]

    async def withdraw_challenges_in(self, guild_id: int) -> int:
        """Withdraw every challenge (and practice offer) still open on the server; how many.
        As ``close_challenge``, their seeds and salts go with them."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE challenges SET status = 'cancelled', seed = '', salt = '' "
                "WHERE guild_id = ? AND status = 'open'", (guild_id,))
            return int(cur.rowcount)
