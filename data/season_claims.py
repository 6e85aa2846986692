"""The claims on an ended season's summary: which process posts it, once, and its mark once
posted (``data.season_queries.Seasons`` has them all; ``cogs.umtali.season_summaries`` posts)."""

from __future__ import annotations

from data.db import Database


class SummaryClaims:
    """Mixed into ``data.season_queries.Seasons``, which gives it its database."""

    db: Database

    async def unannounced(self) -> list[tuple[int, str, int | None]]:
        """Ended seasons whose summary is not posted yet: (server, season, channel)."""
        rows = await self.db.fetchall(
            "SELECT s.guild_id, s.season, g.season_channel_id FROM seasons s "
            "LEFT JOIN guild_settings g ON g.guild_id = s.guild_id "
            "WHERE s.ended_at IS NOT NULL AND s.announced = 0 ORDER BY s.ended_at")
        return [(r["guild_id"], r["season"], r["season_channel_id"]) for r in rows]

    async def claim_summary(self, guild_id: int, season: str, owner: str, now: float,
                            until: float) -> bool:
        """Whether the process named ``owner`` may post the season's summary now: it holds it
        until ``until``, unless it is posted already or another claim still runs."""
        async with self.db.transaction() as tx:
            done = await tx.execute(
                "UPDATE seasons SET claimed_by = ?, claimed_until = ? WHERE guild_id = ? "
                "AND season = ? AND announced = 0 AND claimed_until <= ?",
                (owner, until, guild_id, season, now))
            return done.rowcount == 1

    async def claimed_before(self, guild_id: int, season: str) -> bool:
        """Whether the season's summary was ever claimed: a post of it may have gone out
        (its process stopped, or the database failed, before marking it posted)."""
        row = await self.db.fetchone(
            "SELECT claimed_by FROM seasons WHERE guild_id = ? AND season = ?",
            (guild_id, season))
        return row is not None and row["claimed_by"] != ""

    async def mark_announced(self, guild_id: int, season: str) -> bool:
        """The summary is posted (or has nowhere to go): never again. True for the one caller
        that marks it first."""
        async with self.db.transaction() as tx:
            done = await tx.execute(
                "UPDATE seasons SET announced = 1 WHERE guild_id = ? AND season = ? "
                "AND announced = 0", (guild_id, season))
            return done.rowcount == 1

    async def unclaim_summary(self, guild_id: int, season: str, owner: str) -> None:
        """Give a claimed summary back (its post failed for now): a later tick claims it."""
        async with self.db.transaction() as tx:
            await tx.execute(
                "UPDATE seasons SET claimed_until = 0 WHERE guild_id = ? AND season = ? "
                "AND claimed_by = ?", (guild_id, season, owner))

    async def unclaim_summaries(self, owner: str) -> None:
        """At start: the summaries this process's name claimed before it stopped were never
        marked posted, so their posts did not finish (one name runs one process at a time).
        A read first: a start with none (the usual case) writes nothing."""
        if not await self.db.fetchone(
                "SELECT 1 FROM seasons WHERE claimed_by = ? AND announced = 0 "
                "AND claimed_until > 0 LIMIT 1", (owner,)):
            return
        async with self.db.transaction() as tx:
            await tx.execute(
                "UPDATE seasons SET claimed_until = 0 WHERE claimed_by = ? AND announced = 0",
                (owner,))
