"""Seasons: a server's ladder that starts afresh every month or quarter, without forgetting.

A server chooses a cadence (``monthly``, ``quarterly`` or ``off``). Its rated sessions move a
season rating beside the all-time one, which never resets. When a season is over, whichever
comes first (the clock's tick, or the next session counted) ends it in one transaction: the
season is marked ended (once: a second try finds it ended and does nothing) and every player
of it starts the next season with their rating moved halfway back toward the starting rating,
with more uncertainty: a soft reset, so that the ladder moves again without wiping anyone.
The season's summary is posted later, from what is kept, and marked announced once posted.

Season names are their UTC calendar span: ``2026-12`` (monthly), ``2026-Q4`` (quarterly).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuceRating

from data.db import Database, Tx
from data.models import BoardPage, BoardRow
from data.ratings import MODEL

CADENCES: Final = ("off", "monthly", "quarterly")
#: How much of the distance from the starting rating a player keeps into the next season.
KEEP: Final = 0.5


def season_of(at: float, cadence: str) -> str | None:
    """The season holding the moment ``at`` (a Unix time), or None when seasons are off."""
    day = dt.datetime.fromtimestamp(at, dt.UTC)
    if cadence == "monthly":
        return f"{day.year:04d}-{day.month:02d}"
    if cadence == "quarterly":
        return f"{day.year:04d}-Q{(day.month - 1) // 3 + 1}"
    return None


def season_start(season: str) -> float:
    """When a season began (Unix time)."""
    year, part = season.split("-")
    month = 3 * (int(part[1:]) - 1) + 1 if part.startswith("Q") else int(part)
    return dt.datetime(int(year), month, 1, tzinfo=dt.UTC).timestamp()


def soft_reset(mu: float, sigma: float) -> PlackettLuceRating:
    """A rating carried into a new season: halfway back to the start, and less certain."""
    start = MODEL.rating()
    return MODEL.rating(start.mu + KEEP * (mu - start.mu),
                        min(start.sigma, sigma + (1 - KEEP) * (start.sigma - sigma)))


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    guild_id: int
    season: str
    #: The season that follows it.
    next_season: str


async def current_season(tx: Tx, guild_id: int, cadence: str, now: float) -> str | None:
    """The server's season at ``now``: its open season, after ending it if its time is over
    (then the next one is open). None when the server has seasons off."""
    due = season_of(now, cadence)
    if due is None:
        return None
    row = await tx.fetchone(
        "SELECT season FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    if row is not None:
        if _same_cadence(row["season"], cadence) and row["season"] >= due:
            return str(row["season"])  # (later than due: a late-counted older session)
        await end_season(tx, guild_id, row["season"], due, now)
        return due
    await tx.execute(
        "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, season) DO NOTHING", (guild_id, due, now))
    return due


def _same_cadence(season: str, cadence: str) -> bool:
    return ("-Q" in season) == (cadence == "quarterly")


async def end_season(tx: Tx, guild_id: int, season: str, next_season: str,
                     now: float) -> SeasonEnd | None:
    """End ``season`` and open ``next_season`` with its players' ratings carried over; None
    when it was ended already (by another tick, process or session)."""
    ended = await tx.execute(
        "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND season = ? AND ended_at IS NULL",
        (now, guild_id, season))
    if ended.rowcount != 1:
        return None
    await tx.execute(
        "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, season) DO NOTHING", (guild_id, next_season, now))
    players = await tx.fetchall(
        "SELECT user_id, name, mu, sigma FROM season_ratings WHERE guild_id = ? AND season = ?",
        (guild_id, season))
    for p in players:
        carried = soft_reset(p["mu"], p["sigma"])
        await tx.execute(
            "INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, ordinal) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (guild_id, next_season, p["user_id"], p["name"], carried.mu, carried.sigma,
             carried.ordinal()))
    return SeasonEnd(guild_id, season, next_season)


async def end_due_seasons(tx: Tx, now: float) -> list[SeasonEnd]:
    """End every open season whose time is over at ``now``, on every server with seasons on
    (and the open season of a server that turned them off, once its time is over)."""
    rows = await tx.fetchall(
        "SELECT s.guild_id, s.season, COALESCE(g.seasons, 'off') AS cadence FROM seasons s "
        "LEFT JOIN guild_settings g ON g.guild_id = s.guild_id WHERE s.ended_at IS NULL")
    ended = []
    for r in rows:
        cadence = r["cadence"] if r["cadence"] != "off" else (
            "quarterly" if "-Q" in r["season"] else "monthly")
        due = season_of(now, cadence)
        assert due is not None
        if r["season"] < due or not _same_cadence(r["season"], cadence):
            end = await end_season(tx, r["guild_id"], r["season"], due, now)
            if end is not None:
                ended.append(end)
    return ended


async def rate_season(tx: Tx, guild_id: int, season: str, ids: tuple[int, int],
                      names: tuple[str, str], winner: int) -> None:
    """Both players' season ratings after ``winner`` beat the other."""
    known = {r["user_id"]: MODEL.rating(r["mu"], r["sigma"]) for r in await tx.fetchall(
        "SELECT user_id, mu, sigma FROM season_ratings WHERE guild_id = ? AND season = ? "
        "AND user_id IN (?, ?)", (guild_id, season, *ids))}
    teams = [[known.get(i) or MODEL.rating()] for i in ids]
    rated = MODEL.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
    for seat, (user_id, [r]) in enumerate(zip(ids, rated, strict=True)):
        won = int(seat == winner)
        await tx.execute(
            "INSERT INTO season_ratings AS s (guild_id, season, user_id, name, mu, sigma, "
            "ordinal, sessions_won, sessions_lost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, season, user_id) DO UPDATE SET name = excluded.name, "
            "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
            "sessions_won = s.sessions_won + excluded.sessions_won, "
            "sessions_lost = s.sessions_lost + excluded.sessions_lost",
            (guild_id, season, user_id, names[seat], r.mu, r.sigma, r.ordinal(), won, 1 - won))


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    season: str
    started_at: float
    ended_at: float | None
    players: int


class Seasons:
    """A server's seasons and their boards, and the season ends the clock brings."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def end_due(self, now: float) -> list[SeasonEnd]:
        async with self.db.transaction() as tx:
            return await end_due_seasons(tx, now)

    async def current(self, guild_id: int, cadence: str, now: float) -> str | None:
        """The server's season now (opened, or the last one ended, as its time says)."""
        async with self.db.transaction() as tx:
            return await current_season(tx, guild_id, cadence, now)

    async def of(self, guild_id: int) -> list[SeasonInfo]:
        """Every season the server has had, newest first."""
        rows = await self.db.fetchall(
            "SELECT s.season, s.started_at, s.ended_at, COUNT(r.user_id) AS players "
            "FROM seasons s LEFT JOIN season_ratings r ON r.guild_id = s.guild_id "
            "AND r.season = s.season AND r.sessions_won + r.sessions_lost > 0 "
            "WHERE s.guild_id = ? GROUP BY s.guild_id, s.season "
            "ORDER BY s.started_at DESC, s.season DESC",
            (guild_id,))
        return [SeasonInfo(r["season"], r["started_at"], r["ended_at"], r["players"])
                for r in rows]

    async def board(self, guild_id: int, season: str, page: int,
                    per_page: int = 10) -> BoardPage:
        """One page of a season's board: those who played a rated session in it (a rating
        carried over alone does not put a player on a new season's board)."""
        where = ("FROM season_ratings WHERE guild_id = ? AND season = ? "
                 "AND sessions_won + sessions_lost > 0")
        count = await self.db.fetchone(f"SELECT COUNT(*) {where}", (guild_id, season))
        players = int(count[0]) if count else 0
        pages = max(1, -(-players // per_page))
        page = min(max(1, page), pages)
        first = (page - 1) * per_page
        rows = await self.db.fetchall(
            f"SELECT user_id, name, ordinal, sessions_won, sessions_lost {where} "
            "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, season, per_page, first))
        return BoardPage(page, pages, players, tuple(
            BoardRow(rank=first + i + 1, user_id=r["user_id"], name=r["name"],
                     rating=r["ordinal"], sessions_won=r["sessions_won"],
                     sessions=r["sessions_won"] + r["sessions_lost"])
            for i, r in enumerate(rows)))

    async def unannounced(self) -> list[tuple[int, str, int | None]]:
        """Ended seasons whose summary is not posted yet: (server, season, channel)."""
        rows = await self.db.fetchall(
            "SELECT s.guild_id, s.season, g.season_channel_id FROM seasons s "
            "LEFT JOIN guild_settings g ON g.guild_id = s.guild_id "
            "WHERE s.ended_at IS NOT NULL AND s.announced = 0 ORDER BY s.ended_at")
        return [(r["guild_id"], r["season"], r["season_channel_id"]) for r in rows]

    async def mark_announced(self, guild_id: int, season: str) -> bool:
        """True for the one caller that marks it first."""
        async with self.db.transaction() as tx:
            done = await tx.execute(
                "UPDATE seasons SET announced = 1 WHERE guild_id = ? AND season = ? "
                "AND announced = 0", (guild_id, season))
            return done.rowcount == 1

    async def unmark_announced(self, guild_id: int, season: str) -> None:
        """Give a claimed summary back (its post failed for now): a later tick claims it."""
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE seasons SET announced = 0 WHERE guild_id = ? AND season = ?",
                             (guild_id, season))
