"""The store: every query the bot makes. With ``data.challenges``, ``data.match_saves``,
``data.settings``, ``data.messages``, ``data.absences``, ``data.servers``, ``data.records``,
``data.record_reads``, ``data.seasons`` and ``data.season_claims``, the only modules with SQL
besides the migrations; the same SQL runs on SQLite and PostgreSQL (``data.db``)."""

from __future__ import annotations

import time
from pathlib import Path

from data.absences import AbsenceQueries
from data.challenges import ChallengeQueries
from data.challenges import Limits as Limits  # re-exported: callers know the store
from data.challenges import Refused as Refused
from data.db import INTEGRITY_ERRORS, Database, Reads, Row
from data.match_saves import MatchSaves
from data.match_saves import StaleState as StaleState  # re-exported, as Refused
from data.messages import MessageQueries
from data.models import MatchRow, match_row
from data.record_reads import Records
from data.records import count_backlog
from data.season_queries import Seasons
from data.servers import ServerQueries
from data.settings import SettingsQueries
from data.stops import StopQueries
from data.turn_dms import TurnDmQueries


class AlreadyPlaying(Exception):
    """A member is already in an active match on this server."""

    def __init__(self, user_id: int) -> None:
        super().__init__(user_id)
        self.user_id = user_id


async def metas(reads: Reads, keys: list[str]) -> dict[str, str]:
    """``Store.get_metas`` through ``reads`` (a transaction's, say)."""
    rows = await reads.fetchall(
        f"SELECT key, value FROM meta WHERE key IN ({', '.join('?' * len(keys))})", keys)
    return {str(row["key"]): str(row["value"]) for row in rows}


class Store(ChallengeQueries, SettingsQueries, MessageQueries, ServerQueries,
            AbsenceQueries, MatchSaves, StopQueries, TurnDmQueries):
    def __init__(self, db: Database, limits: Limits | None = None) -> None:
        super().__init__(db, limits)
        #: Results whose count failed here: this process's sweeps pass them by.
        self._uncountable: set[int] = set()

    @staticmethod
    async def open(target: str | Path, *, wait: float | None = None) -> Store:
        """The store in the SQLite file at ``target``, or the PostgreSQL database at a
        ``postgresql://`` URL; ``wait``: as ``Database.open``'s."""
        return Store(await Database.open(target, wait=wait))

    async def close(self) -> None:
        await self.db.close()

    # -- meta -----------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self.db.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def get_metas(self, keys: list[str]) -> dict[str, str]:
        """Several keys at once, in one statement (as one save left them); those not set are
        missing."""
        return await metas(self.db, keys)

    async def set_meta(self, key: str, value: str) -> None:
        await self.set_metas({key: value})

    async def set_metas(self, values: dict[str, str]) -> None:
        """Several keys at once: all saved, or none."""
        async with self.db.transaction() as c:
            for key, value in values.items():
                await c.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )

    # -- matches --------------------------------------------------------------------------

    async def active_match_of(self, guild_id: int, user_id: int) -> int | None:
        row = await self.db.fetchone(
            "SELECT match_id FROM active_players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else int(row["match_id"])

    async def create_match(
        self, *, guild_id: int, channel_id: int, players: tuple[tuple[int, str], tuple[int, str]],
        variant: str, turn_timer: int, state: str, deadline: float | None,
        challenge_id: int | None = None, computer: tuple[int, str] | None = None,
        now: float | None = None, salt: str = "", commitment: str = "",
        time_control: str = "", reserve: float = 0.0, owner: str = "",
        lease_until: float = 0.0, cut: str = "", global_names: tuple[str, str] = ("", ""),
    ) -> int:
        """Start a match; raises AlreadyPlaying if either member is in one on this server.

        With ``challenge_id`` the challenge is marked accepted in the same transaction, and
        only if it was still open (else StaleState): of two clicks racing, one wins, and its
        ``cut`` is the one saved with the match. A practice
        session (``computer``) soon after the member's last one raises Refused.
        ``global_names``: the players' Discord-wide display names by seat, for the records
        of all servers ('' when not known: their names here stand in).
        """
        now = time.time() if now is None else now
        async with self.db.transaction() as c:
            # The challenge first: of two clicks racing, the one that lost is told that,
            # not that a session has just started (the winner's, a practice's cooldown).
            if challenge_id is not None:
                cur = await c.execute(
                    "UPDATE challenges SET status = 'accepted' WHERE id = ? AND status = 'open'",
                    (challenge_id,),
                )
                if cur.rowcount != 1:
                    raise StaleState("the challenge is no longer open")
            if computer is not None:
                await self.check_practice_cooldown(c, guild_id, players[1 - computer[0]][0],
                                                   now)
            inserted = await c.fetchone(
                "INSERT INTO matches (guild_id, channel_id, player0_id, player1_id, "
                "player0_name, player1_name, variant, turn_timer, deadline, state, created_at, "
                "computer_seat, computer_level, salt, commitment, time_control, reserve0, "
                "reserve1, owner, lease_until, cut, player0_global_name, player1_global_name) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING id",
                (guild_id, channel_id, players[0][0], players[1][0], players[0][1],
                 players[1][1], variant, turn_timer, deadline, state, now,
                 computer[0] if computer else None, computer[1] if computer else None,
                 salt, commitment, time_control, reserve, reserve, owner, lease_until, cut,
                 *global_names),
            )
            assert inserted is not None
            match_id = int(inserted["id"])
            for seat, (user_id, _) in enumerate(players):
                if computer is not None and seat == computer[0]:
                    continue  # the computer may play any number of practice matches
                try:
                    await c.execute(
                        "INSERT INTO active_players (guild_id, user_id, match_id) "
                        "VALUES (?, ?, ?)",
                        (guild_id, user_id, match_id),
                    )
                except INTEGRITY_ERRORS:
                    raise AlreadyPlaying(user_id) from None
            if challenge_id is not None:
                await c.execute("UPDATE challenges SET match_id = ? WHERE id = ?",
                                (match_id, challenge_id))
        return match_id

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self.db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return None if row is None else match_row(row)

    async def active_matches(self) -> list[MatchRow]:
        rows = await self.db.fetchall("SELECT * FROM matches WHERE status = 'active'")
        return [match_row(r) for r in rows]

    async def matches_to_resume(self) -> list[MatchRow]:
        """Active matches, and finished ones whose last announcements were never posted."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE status = 'active' UNION ALL "
            "SELECT * FROM matches WHERE status = 'finished' AND unsent != '[]'")
        return [match_row(r) for r in rows]

    async def moves(self, match_id: int) -> list[str]:
        rows = await self.db.fetchall(
            "SELECT move FROM moves WHERE match_id = ? ORDER BY ply", (match_id,))
        return [str(r["move"]) for r in rows]

    async def session_results(self, guild_id: int | None = None) -> list[Row]:
        if guild_id is None:
            return await self.db.fetchall("SELECT * FROM session_results ORDER BY finished_at")
        return await self.db.fetchall(
            "SELECT * FROM session_results WHERE guild_id = ? ORDER BY finished_at", (guild_id,))

    # -- records --------------------------------------------------------------------------

    @property
    def records(self) -> Records:
        """Leaderboards, stats and history (the reads live in ``data.record_reads``)."""
        return Records(self.db)

    @property
    def seasons(self) -> Seasons:
        """Servers' seasons and their boards (``data.seasons``)."""
        return Seasons(self.db)

    async def count_backlog(self, counted_ids: list[int] | None = None,
                            now: float | None = None) -> int:
        """Count the results not counted yet (kept before records existed, or whose count
        failed) into stats and ratings, once each, oldest first (at start-up: every one);
        the ids counted are added to ``counted_ids``. ``now``: the clock (None: the
        system's)."""
        self._uncountable.clear()
        return await count_backlog(self.db, skip=self._uncountable, counted_ids=counted_ids,
                                   now=now)

    async def sweep_uncounted(self, counted_ids: list[int] | None = None,
                              left: list[int] | None = None, now: float | None = None) -> int:
        """The same, now and then while the bot runs (the season tick): a result whose count
        failed in this process (a bug) is left for the next start (no error logged every
        minute); ``left``: the result the sweep stopped at (contention, or the database
        failing for now), for the next sweep."""
        return await count_backlog(self.db, skip=self._uncountable, counted_ids=counted_ids,
                                   left=left, now=now)
