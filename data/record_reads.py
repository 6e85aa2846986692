"""Records read back: leaderboards, a person's record, history and head-to-head, each a few
indexed reads of what ``data.records`` counted."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from data.db import Database, Reads, Row
from data.models import (
    BoardPage,
    BoardRow,
    HandLine,
    HeadToHead,
    PlayerRecord,
    PlayerStats,
    Rating,
    SessionLine,
)
from data.ranks import Board

PER_PAGE = 10
_COLS = tuple(f.name for f in fields(PlayerStats))

BOARD_SQL = (
    "SELECT r.user_id, r.ordinal, s.name, s.sessions_won, s.sessions_lost FROM ratings r "
    "LEFT JOIN player_stats s ON s.scope = r.scope AND s.user_id = r.user_id AND s.practice = 0 "
    "WHERE r.scope = ? ORDER BY r.ordinal DESC, r.user_id LIMIT ? OFFSET ?"
)
PLAYERS_SQL = "SELECT COUNT(*) FROM ratings WHERE scope = ?"
# A place on the board: after everyone shown above (``data.ranks``), those shown alike sharing it.
ABOVE_SQL = "SELECT COUNT(*) FROM ratings WHERE scope = ? AND ordinal > ?"
NEAR_SQL = "SELECT ordinal FROM ratings WHERE scope = ? AND ordinal > ? AND ordinal < ?"
BOARD = Board(ABOVE_SQL, NEAR_SQL)
STATS_SQL = "SELECT * FROM player_stats WHERE scope = ? AND user_id = ?"
RATING_SQL = "SELECT mu, sigma, ordinal FROM ratings WHERE scope = ? AND user_id = ?"
# A person's newest sessions: those at or after the ``limit``-th newest time (ties included),
# read in the history indexes' order with no sort; ``_newest`` orders them by time and then
# match id (two sessions ending in the same instant come in one order on both backends).
_SINCE = ("p.finished_at >= COALESCE((SELECT finished_at FROM session_players WHERE {where} "
          "ORDER BY finished_at DESC LIMIT 1 OFFSET ?{n} - 1), -1)")
RECENT_SQL = (
    "SELECT r.* FROM session_players p JOIN session_results r ON r.match_id = p.match_id "
    "WHERE p.user_id = ?1 AND p.guild_id = ?2 AND "
    + _SINCE.format(where="user_id = ?1 AND guild_id = ?2", n=3)
)
# Head-to-head: rated sessions only. A practice session's opponent is the bot's own user id
# (its practice is counted apart, under "Practice").
VERSUS_SQL = (
    "SELECT r.* FROM session_players p JOIN session_results r ON r.match_id = p.match_id "
    "WHERE p.user_id = ?1 AND p.opponent_id = ?2 AND p.guild_id = ?3 AND p.practice = 0 AND "
    + _SINCE.format(where="user_id = ?1 AND opponent_id = ?2 AND guild_id = ?3 AND "
                    "practice = 0", n=4)
)
VERSUS_COUNT_SQL = (
    "SELECT COUNT(*) AS n, COALESCE(SUM(won), 0) AS won FROM session_players "
    "WHERE user_id = ? AND opponent_id = ? AND guild_id = ? AND practice = 0"
)

# Matches that ended with no result after cards were dealt (their table posted, or play gone
# on in DMs: ``LiveMatch.dealt``) and whose seed was sealed: each is revealed once over.
UNFINISHED_SQL = (
    "SELECT id, guild_id, player0_id, player1_id, player0_name, player1_name, how, finished_at, "
    "computer_seat, computer_level, ended_by "
    "FROM matches WHERE guild_id = ?1 AND status = 'finished' AND winner_seat IS NULL AND "
    "(player0_id = ?2 OR player1_id = ?2) AND commitment != '' AND "
    "(table_message_id IS NOT NULL OR channel_lost = 1) "
    "ORDER BY finished_at DESC, id DESC LIMIT ?3"
)


@dataclass(frozen=True, slots=True)
class UnfinishedLine:
    """A match that ended with no result (``how``: abandoned, cancelled) after its deal."""

    match_id: int
    guild_id: int
    player_ids: tuple[int, int]
    names: tuple[str, str]
    how: str
    finished_at: float
    #: A practice match: the computer's seat and level (its name is worded for the reader).
    computer_seat: int | None = None
    computer_level: str | None = None
    #: The server admin who ended it (``/umtali-admin end-match``); None: not an admin.
    ended_by: int | None = None


def _line(row: Row) -> SessionLine:
    return SessionLine(
        match_id=row["match_id"], guild_id=row["guild_id"],
        player_ids=(row["player0_id"], row["player1_id"]),
        names=(row["player0_name"], row["player1_name"]), winner_seat=row["winner_seat"],
        how=row["how"], games_won=(row["games_won0"], row["games_won1"]),
        variant=row["variant"], computer_level=row["computer_level"],
        finished_at=row["finished_at"],
    )


def _newest(rows: list[Row], limit: int) -> list[SessionLine]:
    """The ``limit`` newest, newest first; of two at the same time, the later match first."""
    ordered = sorted(rows, key=lambda r: (r["finished_at"], r["match_id"]), reverse=True)
    return [_line(r) for r in ordered[:limit]]


def _stats(row: Any) -> PlayerStats:
    return PlayerStats(**{c: row[c] for c in _COLS}) if row is not None else PlayerStats()


async def _rating(db: Reads, scope: int, user_id: int) -> Rating | None:
    """A person's rating and place on the board of ``scope``, read in ``db``'s snapshot."""
    row = await db.fetchone(RATING_SQL, (scope, user_id))
    if row is None:
        return None
    ahead = await BOARD.ahead(db, (scope,), row["ordinal"])
    count = await db.fetchone(PLAYERS_SQL, (scope,))
    return Rating(row["mu"], row["sigma"], row["ordinal"], rank=1 + ahead,
                  players=int(count[0]) if count else 0)


class Records:
    """Leaderboards, a person's record, history and head-to-head: each a few indexed reads."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(self, scope: int, page: int, per_page: int = PER_PAGE) -> BoardPage:
        """One page of the board (a page past the end shows the last one)."""
        async with self.db.snapshot() as db:  # its count, rows and places of one board
            count = await db.fetchone(PLAYERS_SQL, (scope,))
            players = int(count[0]) if count else 0
            pages = max(1, -(-players // per_page))
            page = min(max(1, page), pages)
            first = (page - 1) * per_page
            rows = await db.fetchall(BOARD_SQL, (scope, per_page, first))
            places = await BOARD.places(db, (scope,), first, [r["ordinal"] for r in rows])
        return BoardPage(page, pages, players, tuple(
            BoardRow(rank=place, user_id=r["user_id"], name=r["name"] or "",
                     rating=r["ordinal"], sessions_won=r["sessions_won"] or 0,
                     sessions=(r["sessions_won"] or 0) + (r["sessions_lost"] or 0))
            for place, r in zip(places, rows, strict=True)))

    async def record(self, scope: int, user_id: int) -> PlayerRecord:
        async with self.db.snapshot() as db:  # the totals and the rating after one session
            stats = await db.fetchall(STATS_SQL, (scope, user_id))
            rating = await _rating(db, scope, user_id)
        by_kind = {r["practice"]: r for r in stats}
        newest = max(stats, key=lambda r: r["last_at"], default=None)
        return PlayerRecord(
            name=newest["name"] if newest is not None else None,
            rated=_stats(by_kind.get(0)), practice=_stats(by_kind.get(1)),
            rating=rating,
        )

    async def rating(self, scope: int, user_id: int) -> Rating | None:
        async with self.db.snapshot() as db:
            return await _rating(db, scope, user_id)

    async def recent(self, guild_id: int, user_id: int, limit: int = 5) -> list[SessionLine]:
        """A person's latest finished sessions on a server, newest first."""
        if limit < 1:
            return []
        return _newest(await self.db.fetchall(RECENT_SQL, (user_id, guild_id, limit)), limit)

    async def head_to_head(self, guild_id: int, user_id: int, versus: int,
                           limit: int = 3) -> HeadToHead:
        async with self.db.snapshot() as db:  # the count and the sessions listed agree
            count = await db.fetchone(VERSUS_COUNT_SQL, (user_id, versus, guild_id))
            recent = await db.fetchall(VERSUS_SQL, (user_id, versus, guild_id, max(1, limit)))
        played, won = (int(count["n"]), int(count["won"])) if count else (0, 0)
        return HeadToHead(won, played - won, tuple(_newest(recent, limit)))

    async def unfinished(self, guild_id: int, user_id: int,
                         limit: int = 5) -> list[UnfinishedLine]:
        """A person's latest matches on a server that ended with no result after their deal,
        newest first (their seeds revealed all the same)."""
        if limit < 1:
            return []
        rows = await self.db.fetchall(UNFINISHED_SQL, (guild_id, user_id, limit))
        return [UnfinishedLine(r["id"], r["guild_id"], (r["player0_id"], r["player1_id"]),
                               (r["player0_name"], r["player1_name"]), r["how"] or "",
                               r["finished_at"], r["computer_seat"], r["computer_level"],
                               r["ended_by"])
                for r in rows]

    async def session(self, match_id: int) -> SessionLine | None:
        row = await self.db.fetchone("SELECT * FROM session_results WHERE match_id = ?",
                                     (match_id,))
        return None if row is None else _line(row)

    async def hands(self, match_id: int) -> list[HandLine]:
        rows = await self.db.fetchall(
            "SELECT * FROM session_hands WHERE match_id = ? ORDER BY game, hand", (match_id,))
        return [HandLine(r["game"], r["hand"], (r["score0"], r["score1"]), r["went_out"],
                         (r["marriages0"], r["marriages1"])) for r in rows]

    async def rating_changes(self, match_id: int) -> dict[int, tuple[float, float]]:
        """Each rated seat's board value on the session's server before and after it."""
        rows = await self.db.fetchall(
            "SELECT seat, rating_before, rating_after FROM session_players "
            "WHERE match_id = ? AND rating_before IS NOT NULL", (match_id,))
        return {r["seat"]: (r["rating_before"], r["rating_after"]) for r in rows}

    async def season_changes(self, match_id: int
                             ) -> tuple[str, dict[int, tuple[float, float]]] | None:
        """The season a rated session was counted into, and each seat's season rating before
        and after it; None: into no season (seasons off, or counted before they were kept)."""
        rows = await self.db.fetchall(
            "SELECT seat, season, season_before, season_after FROM session_players "
            "WHERE match_id = ? AND season IS NOT NULL", (match_id,))
        if not rows:
            return None
        return rows[0]["season"], {r["seat"]: (r["season_before"], r["season_after"])
                                   for r in rows}
