"""Seasons: a server's ladder that starts afresh every month or quarter, without forgetting.

A server chooses a cadence (``monthly``, ``quarterly`` or ``off``). Its rated sessions move a
season rating beside the all-time one, which never resets. When a season is over, whichever
comes first (the clock's tick, or the next session counted) ends it in one transaction: the
season is marked ended (once: a second try finds it ended and does nothing) and every player
of it starts the next season with their rating moved halfway back toward the starting rating,
with more uncertainty: a soft reset, so that the ladder moves again without wiping anyone.
The season's summary is posted later, from what is kept, and marked announced once posted.

Season names are their UTC calendar span: ``2026-12`` (monthly), ``2026-Q4`` (quarterly).
A season always runs to the end of its own span: a new cadence applies from the next season
(so no name is ever taken twice), and a server that turns seasons off has its open season
ended at its usual time with no next one opened (sessions played until then count in it,
as the manager is told; after it, in none). Turned on again, its new season starts from the
last one's ratings, softly reset once.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuceRating

from data.db import Reads, Tx
from data.ratings import MODEL

CADENCES: Final = ("off", "monthly", "quarterly")
#: How much of the distance from the starting rating a player keeps into the next season.
KEEP: Final = 0.5
#: How long past a season's turn the clock's tick waits before ending it (seconds): another
#: process's clock a few seconds behind counts a session of the season's last seconds (by its
#: clock) into it first; ended before, that session was rated into no season. A session counted
#: past the turn still ends the season at once (one at midnight is in the new month).
SKEW: Final = 10.0
#: How long past its span's end a season may still open for a result of its span counted late
#: (its count failed as it ended; the season tick sweeps such results every minute, first):
#: counted at its end it would have opened it. Later, a season gone by opens for none (a
#: summary long after, for a period the server may not have run seasons in).
LATE: Final = 120.0
#: Ratings carried into a new season per statement (7 values each: within both backends'
#: limits on a statement's parameters).
CARRY_ROWS: Final = 500
# A season's board: those who played a rated session in it.
_BOARD_WHERE: Final = ("FROM season_ratings WHERE guild_id = ? AND season = ? "
                       "AND sessions_won + sessions_lost > 0")
#: A season's players counted (through the index of those who played: migration 28).
_COUNT: Final = f"SELECT COUNT(*) {_BOARD_WHERE}"



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


def season_end(season: str) -> float:
    """When a season is over (Unix time): the start of the month or quarter after it."""
    year, part = season.split("-")
    month = 3 * int(part[1:]) + 1 if part.startswith("Q") else int(part) + 1
    if month > 12:
        year, month = str(int(year) + 1), month - 12
    return dt.datetime(int(year), month, 1, tzinfo=dt.UTC).timestamp()


def same_cadence(season: str, cadence: str) -> bool:
    """``season`` is one that ``cadence`` makes (a month, or a quarter)."""
    return ("-Q" in season) == (cadence == "quarterly")


def guild_key(guild_id: int) -> int:
    """The key that makes rating into a server's season and ending it take turns
    (``Tx.serialise``): negative, so that it is never a player's (Discord ids are positive)."""
    return -guild_id


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    guild_id: int
    season: str
    #: The season that follows it (None: the server has turned seasons off).
    next_season: str | None


async def current_season(tx: Tx, guild_id: int, cadence: str, now: float,
                         clock: float | None = None) -> str | None:
    """The server's season for a session that ended at ``now``, counted at ``clock`` (None:
    as it ends, at ``now``): its open season, after ending it if its time is over (then the
    next one is open). None when the server has seasons off.

    A season runs to the end of its own month or quarter whatever the cadence is now: a new
    cadence applies from the next season, so a season's name is never taken twice. Ending a
    season (here, or by the tick in another process) and rating into it take turns: a session
    that ended in a season already ended when it is counted is rated into no season.

    ``cadence`` is the caller's read of it: read again under the server's season lock, which
    a manager's change of it takes too (``SettingsQueries.change_guild_settings``), so that a
    season is ended and the next opened by the cadence in force then, not one changed since
    the caller read it; with since when it is in force (``guild_settings.seasons_since``,
    migration 33).

    A server that turned seasons off still counts into the season in play until its end (no
    next one opens): as the manager is told (``cogs.umtali.seasons.cadence_note``). Only the
    season of the clock opens: a session counted late, with no open season of its time, is
    rated into none (else a month gone by would open, and be summed up, long after); one
    counted within ``LATE`` past its span's end (the next sweep) opens its own season, as it
    would have at its end: if the cadence now was in force then (review122: seasons turned
    on just past the turn opened, and summed up, a month the server never had seasons in)."""
    if season_of(now, cadence) is None and await _running(tx, guild_id) is None:
        return None  # seasons off and none in play: no season lock taken
    # (never behind the session's own end: another process's clock may be a little behind)
    clock = now if clock is None else max(clock, now)
    await tx.serialise([guild_key(guild_id)])
    cadence, since = await _cadence_since(tx, guild_id)
    due, played_in = season_of(clock, cadence), season_of(now, cadence)
    if played_in is not None and clock < season_end(played_in) + LATE and \
            (since is None or since <= now):
        # Counted just past the turn (the next sweep): the season of its end opens if none
        # is (seasons turned on in its span, nobody counted in it since), or follows an over
        # one, as counted at its end; the tick ends it then. Only by the cadence in force at
        # its end: one chosen since (seasons turned on past the turn, say) made no season
        # then, and what it replaced is not kept, so the result is rated into none.
        due = played_in
    last = await tx.fetchone(
        "SELECT season FROM seasons WHERE guild_id = ? AND ended_at IS NOT NULL "
        "ORDER BY ended_at DESC, season DESC LIMIT 1", (guild_id,))
    if last is not None and now < season_end(last["season"]):
        # Counted late, within the span of a season that has ended: rated into none. The
        # season open now may be named for a span begun before that (a quarter opened when a
        # month ended, the cadence changed meanwhile), so its name alone does not tell.
        return None
    row = await tx.fetchone(
        "SELECT season FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    if row is not None:
        if now < season_start(row["season"]):
            # Counted late, after its own span's season ended (or in a span with none): it
            # was not played in the open season, and is rated into none.
            return None
        if now < season_end(row["season"]):
            return str(row["season"])  # whatever the cadence now: it runs to its end
        await end_season(tx, guild_id, row["season"], due, clock)
        return None if due is None or due != played_in else await _open(tx, guild_id, due)
    if due is None or due != played_in:
        return None
    return await open_season(tx, guild_id, due, clock)


async def _waiting(db: Reads, guild_id: int, season: str) -> bool:
    """Whether a rated result of the server that ended in ``season``'s span waits to be
    counted (its count failed for now: the tick's next sweep counts it into the season,
    within ``LATE`` past its end). Through the index of uncounted results (migration 2)."""
    return await db.fetchone(
        "SELECT 1 FROM session_results WHERE recorded = 0 AND finished_at >= ? "
        "AND finished_at < ? AND guild_id = ? AND computer_level IS NULL "
        "AND player0_id <> player1_id LIMIT 1",
        (season_start(season), season_end(season), guild_id)) is not None


async def _running(tx: Reads, guild_id: int) -> str | None:
    """The server's open season, if any (over or not)."""
    row = await tx.fetchone(
        "SELECT season FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    return None if row is None else str(row["season"])


async def cadence_of(tx: Tx, guild_id: int) -> str:
    """The server's cadence, as ``tx`` reads it (``off`` when it never chose one)."""
    row = await tx.fetchone("SELECT seasons FROM guild_settings WHERE guild_id = ?",
                            (guild_id,))
    return "off" if row is None else str(row["seasons"])


async def _cadence_since(tx: Tx, guild_id: int) -> tuple[str, float | None]:
    """The server's cadence, and since when it is in force (None: since long ago)."""
    row = await tx.fetchone("SELECT seasons, seasons_since FROM guild_settings "
                            "WHERE guild_id = ?", (guild_id,))
    if row is None:
        return "off", None
    return str(row["seasons"]), None if row["seasons_since"] is None \
        else float(row["seasons_since"])


async def _open(tx: Tx, guild_id: int, season: str) -> str | None:
    """``season`` if it is open; None if it has ended (a late-counted session of a season
    already over is rated into none)."""
    row = await tx.fetchone("SELECT ended_at FROM seasons WHERE guild_id = ? AND season = ?",
                            (guild_id, season))
    return season if row is not None and row["ended_at"] is None else None


async def open_season(tx: Tx, guild_id: int, season: str, now: float) -> str | None:
    """Open ``season`` (once) with the ratings of the server's last ended season carried over
    (softly reset, as at any season's end); None if that name is taken by an ended season."""
    opened = await tx.execute(
        "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, season) DO NOTHING", (guild_id, season, now))
    if opened.rowcount != 1:
        return await _open(tx, guild_id, season)
    last = await tx.fetchone(
        "SELECT season FROM seasons WHERE guild_id = ? AND ended_at IS NOT NULL "
        "ORDER BY ended_at DESC, season DESC LIMIT 1", (guild_id,))
    if last is not None:
        await _carry(tx, guild_id, last["season"], season)
    return season


async def _carry(tx: Tx, guild_id: int, ended: str, into: str) -> None:
    players = await tx.fetchall(
        "SELECT user_id, name, mu, sigma FROM season_ratings WHERE guild_id = ? AND season = ?",
        (guild_id, ended))
    rows = []
    for p in players:
        carried = soft_reset(p["mu"], p["sigma"])
        rows.append((guild_id, into, p["user_id"], p["name"], carried.mu, carried.sigma,
                     carried.ordinal()))
    # A few statements of many rows each: the server's season lock is held meanwhile.
    for first in range(0, len(rows), CARRY_ROWS):
        chunk = rows[first:first + CARRY_ROWS]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
        await tx.execute(
            "INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, ordinal) "
            f"VALUES {marks} ON CONFLICT DO NOTHING", tuple(v for r in chunk for v in r))


async def end_season(tx: Tx, guild_id: int, season: str, next_season: str | None,
                     now: float) -> SeasonEnd | None:
    """End ``season`` and open ``next_season`` (none: the server turned seasons off) with its
    players' ratings carried over; None when it was ended already (by another tick, process
    or session). Call with the server's season lock (``guild_key``) held. Its players are
    counted again from its board (through ``season_played``): ``seasons.players``, added to as
    each first plays, misses any an older process counted (migration 28's window)."""
    ended = await tx.execute(
        f"UPDATE seasons SET ended_at = ?, players = ({_COUNT}) "
        "WHERE guild_id = ? AND season = ? AND ended_at IS NULL",
        (now, guild_id, season, guild_id, season))
    if ended.rowcount != 1:
        return None
    if next_season is not None:
        await open_season(tx, guild_id, next_season, now)
    return SeasonEnd(guild_id, season, next_season)


async def rate_season(tx: Tx, guild_id: int, season: str, ids: tuple[int, int],
                      names: tuple[str, str], winner: int) -> list[tuple[float, float]]:
    """Both players' season ratings after ``winner`` beat the other; returns each seat's
    board value before and after."""
    rows = await tx.fetchall(
        "SELECT user_id, mu, sigma, sessions_won + sessions_lost AS played FROM season_ratings "
        "WHERE guild_id = ? AND season = ? AND user_id IN (?, ?)", (guild_id, season, *ids))
    known = {r["user_id"]: MODEL.rating(r["mu"], r["sigma"]) for r in rows}
    # Those playing in the season for the first time (no rating, or one carried over alone).
    newcomers = len(ids) - sum(1 for r in rows if r["played"] > 0)
    if newcomers:
        await tx.execute("UPDATE seasons SET players = players + ? WHERE guild_id = ? AND "
                         "season = ?", (newcomers, guild_id, season))
    teams = [[known.get(i) or MODEL.rating()] for i in ids]
    rated = MODEL.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
    moved = []
    for seat, (user_id, [before], [r]) in enumerate(zip(ids, teams, rated, strict=True)):
        moved.append((before.ordinal(), r.ordinal()))
        won = int(seat == winner)
        await tx.execute(
            "INSERT INTO season_ratings AS s (guild_id, season, user_id, name, mu, sigma, "
            "ordinal, sessions_won, sessions_lost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            # The newest name, as the server's all-time records keep it (counted just before,
            # newest session wins): a result counted late wrote the name its player had then
            # over a newer one, kept on into the summary and the next season's carried rows.
            "ON CONFLICT (guild_id, season, user_id) DO UPDATE SET name = COALESCE(("
            "SELECT p.name FROM player_stats p WHERE p.scope = s.guild_id "
            "AND p.user_id = s.user_id AND p.practice = 0), excluded.name), "
            "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
            "sessions_won = s.sessions_won + excluded.sessions_won, "
            "sessions_lost = s.sessions_lost + excluded.sessions_lost",
            (guild_id, season, user_id, names[seat], r.mu, r.sigma, r.ordinal(), won, 1 - won))
    return moved
