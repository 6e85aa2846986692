"""The store's reads of seasons, and the season ends the clock brings: a server's seasons, a
season's board and a member's standing on it, the season in play (``data.seasons`` has what
a season is, and the transactions that open, end and rate into one)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from data.db import Database, Reads
from data.models import BoardPage, BoardRow, Rating
from data.ranks import Board
from data.season_claims import SummaryClaims
from data.seasons import (
    _BOARD_WHERE,
    _COUNT,
    LATE,
    SKEW,
    SeasonEnd,
    _running,
    _waiting,
    cadence_of,
    current_season,
    end_season,
    guild_key,
    season_end,
    season_of,
    season_start,
)

SEASON_BOARD: Final = Board(f"SELECT COUNT(*) {_BOARD_WHERE} AND ordinal > ?",
                            f"SELECT ordinal {_BOARD_WHERE} AND ordinal > ? AND ordinal < ?")


async def _season_page(db: Reads, guild_id: int, season: str, page: int,
                       per_page: int) -> BoardPage:
    """A page of a season's board, read in ``db``'s snapshot."""
    count = await db.fetchone(_COUNT, (guild_id, season))
    players = int(count[0]) if count else 0
    pages = max(1, -(-players // per_page))
    page = min(max(1, page), pages)
    first = (page - 1) * per_page
    rows = await db.fetchall(
        f"SELECT user_id, name, ordinal, sessions_won, sessions_lost {_BOARD_WHERE} "
        "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?", (guild_id, season, per_page, first))
    places = await SEASON_BOARD.places(db, (guild_id, season), first,
                                       [r["ordinal"] for r in rows])
    return BoardPage(page, pages, players, tuple(
        BoardRow(rank=place, user_id=r["user_id"], name=r["name"], rating=r["ordinal"],
                 sessions_won=r["sessions_won"], sessions=r["sessions_won"] + r["sessions_lost"])
        for place, r in zip(places, rows, strict=True)))


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    season: str
    started_at: float
    ended_at: float | None
    players: int


class Seasons(SummaryClaims):
    """A server's seasons and their boards, and the season ends the clock brings (the claims
    on their summaries: ``data.season_claims``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def end_due(self, now: float,
                      skip: Callable[[int], bool] | None = None) -> list[SeasonEnd]:
        """End every open season whose month or quarter is over at ``now``: on a server with
        seasons on, the next season opens with the ratings carried over; on one that turned
        them off, none does. Each server's end is a transaction of its own (its season lock
        held briefly); in server order, so that two processes' ticks cannot deadlock.
        ``skip``: the servers whose seasons stand still for now (the bot removed from them).
        A season ends here ``SKEW`` seconds past its turn, for the clocks of other processes.
        The cadence that names the next season is read under the lock, which a manager's
        change of it takes too: one changed (turned off, say) after the open seasons were
        read still decides."""
        rows = await self.db.fetchall(
            "SELECT guild_id, season FROM seasons WHERE ended_at IS NULL ORDER BY guild_id")
        ended = []
        for r in rows:
            if now < season_end(r["season"]) + SKEW or \
                    (skip is not None and skip(r["guild_id"])):
                continue
            async with self.db.transaction() as tx:
                await tx.serialise([guild_key(r["guild_id"])])
                cadence = await cadence_of(tx, r["guild_id"])
                end = await end_season(tx, r["guild_id"], r["season"],
                                       season_of(now, cadence), now)
            if end is not None:
                ended.append(end)
        return ended

    async def running(self, guild_id: int) -> str | None:
        """The server's open season, if any (over or not)."""
        return await _running(self.db, guild_id)

    async def in_play(self, guild_id: int, now: float) -> str | None:
        """The server's open season while its span lasts (and ``SKEW`` after, as the tick
        waits; up to ``LATE`` after while a rated result of its span waits to be counted, as
        the tick holds it open for its sweep): past it, the season is over, whether or not the
        tick has ended it yet. A read, for what is shown (ending a season is the tick's, or a
        session's count)."""
        season = await self.running(guild_id)
        if season is None:
            return None
        end = season_end(season)
        if now < end + SKEW or (now < end + LATE and await _waiting(self.db, guild_id, season)):
            return season
        return None

    async def current(self, guild_id: int, cadence: str, now: float) -> str | None:
        """The server's season now (opened, or the last one ended, as its time says). A read
        (a board asked for) leaves a season in play to its end and ``SKEW`` after, as the tick
        does: ended sooner, another process's session of its last seconds would be rated
        into none (review52). Up to ``LATE`` after while a result of its span waits to be
        counted (``in_play``): the tick's next sweep counts it into the season, then ends it
        and posts its summary; ended by the read, that result was rated into none (fix144)."""
        if (season := await self.in_play(guild_id, now)) is not None:
            return season
        if (due := season_of(now, cadence)) is not None and await self.running(guild_id) is None:
            # No season open (seasons turned on in the span before): a waiting result of that
            # span opens its season at the next sweep; opened now, ``due`` would take its place.
            before = season_of(season_start(due) - 1, cadence)
            if before is not None and now < season_end(before) + LATE and \
                    await _waiting(self.db, guild_id, before):
                return None
        async with self.db.transaction() as tx:
            return await current_season(tx, guild_id, cadence, now)

    async def had(self, guild_id: int, season: str) -> bool:
        """Whether the server has had ``season`` (by its key: no board counted)."""
        return await self.db.fetchone("SELECT 1 FROM seasons WHERE guild_id = ? AND season = ?",
                                      (guild_id, season)) is not None

    async def of(self, guild_id: int) -> list[SeasonInfo]:
        """Every season the server has had, newest first, with how many played in each (kept
        with the season: a row each, nothing counted)."""
        rows = await self.db.fetchall(
            "SELECT season, started_at, ended_at, players FROM seasons WHERE guild_id = ? "
            "ORDER BY started_at DESC, season DESC", (guild_id,))
        return [SeasonInfo(r["season"], r["started_at"], r["ended_at"], r["players"])
                for r in rows]

    async def board(self, guild_id: int, season: str, page: int,
                    per_page: int = 10) -> BoardPage:
        """One page of a season's board: those who played a rated session in it (a rating
        carried over alone does not put a player on a new season's board)."""
        async with self.db.snapshot() as db:  # its count, rows and places of one board
            return await _season_page(db, guild_id, season, page, per_page)

    async def standing(self, guild_id: int, season: str, user_id: int) -> Rating | None:
        """A member's rating and place on a season's board; None until they play in it (a
        rating carried over from the season before is on no board yet)."""
        async with self.db.snapshot() as db:  # the place among the players counted with it
            row = await db.fetchone(
                f"SELECT mu, sigma, ordinal {_BOARD_WHERE} AND user_id = ?",
                (guild_id, season, user_id))
            if row is None:
                return None
            ahead = await SEASON_BOARD.ahead(db, (guild_id, season), row["ordinal"])
            count = await db.fetchone(_COUNT, (guild_id, season))
        return Rating(row["mu"], row["sigma"], row["ordinal"], rank=1 + ahead,
                      players=int(count[0]) if count else 0)

    async def best(self, guild_id: int, season: str, places: int,
                   most: int) -> tuple[BoardPage, int]:
        """A season's best, for its summary: everyone placed within the first ``places``,
        all of a tie for the last of them too (1, 2, 3, 3), but at most ``most`` (no fewer
        than ``places``) listed; and how many more share those places."""
        async with self.db.snapshot() as db:
            top = await _season_page(db, guild_id, season, 1, most + 1)
            rows = tuple(r for r in top.rows if r.rank <= places)
            if len(rows) <= most:
                return BoardPage(1, 1, top.players, rows), 0
            # The first left out shares a place within ``places``: so does everyone shown as
            # it is or higher, and nobody else (their next place is past ``most``).
            within = await SEASON_BOARD.within(db, (guild_id, season), rows[most].rating)
        return BoardPage(1, 1, top.players, rows[:most]), within - most
