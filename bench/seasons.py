"""Seasons at scale: what the ``season`` option of ``/umtali leaderboard`` reads, a season's
board, and the carry that opens a new season, on a server with many players and seasons.

Seeds one server with ``--players`` people (default 50,000) and ``--seasons`` monthly seasons
(default 36), every player's rating carried into every season (as ``_carry`` does: every
player ever rated there), ``--active`` of them (default 5,000) having played in each.
Rows go straight into the tables (seeding through the store would rate 1.8 million sessions).

Then times, on that database (SQLite):
- ``Seasons.of``: every season with its players, what every keystroke of the option's
  suggestions reads (and every ``season:`` asked for, before review116): counted from the
  ratings before, kept with each season since (``seasons.players``, migration 28);
- ``Seasons.had``: the key check ``/umtali leaderboard season:…`` reads now;
- a season's board, first page, and a member's standing on it;
- the carry: ending the open season and opening the next, every rating carried (one write
  transaction: on SQLite every save waits for it).

Figures only, no pass/fail (machines are noisy). Run from an older checkout, the reads it
lacks are skipped: the figures before and after.

    .venv/bin/python bench/seasons.py [--players 50000] [--seasons 36] [--active 5000]
                                      [--samples 30] [--carries 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data.seasons import end_season, guild_key, season_end, season_start
from data.store import Store

GUILD = 10**17


def names(count: int) -> list[str]:
    """``count`` monthly seasons, oldest first, the last ending December 2026."""
    out, year, month = [], 2026, 12
    for _ in range(count):
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return out[::-1]


def seed(path: Path, players: int, seasons: list[str], active: int) -> None:
    rng = random.Random(1)
    con = sqlite3.connect(path)
    with con:
        con.executemany(
            "INSERT INTO seasons (guild_id, season, started_at, ended_at, announced) "
            "VALUES (?, ?, ?, ?, 1)",
            [(GUILD, s, season_start(s), None if s == seasons[-1] else season_end(s))
             for s in seasons])
    for s in seasons:
        played = set(rng.sample(range(1, players + 1), active))
        rows = []
        for user in range(1, players + 1):
            mu, sigma = 25 + rng.gauss(0, 3), 6 + rng.random() * 2
            won = rng.randrange(1, 6) if user in played else 0
            lost = rng.randrange(1, 6) if user in played else 0
            rows.append((GUILD, s, user, f"player {user}", mu, sigma, mu - 3 * sigma, won, lost))
        with con:
            con.executemany(
                "INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, "
                "ordinal, sessions_won, sessions_lost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    if "players" in {c[1] for c in con.execute("PRAGMA table_info(seasons)")}:
        with con:  # as ``rate_season`` keeps it (migration 28)
            con.execute("UPDATE seasons SET players = ?", (active,))
    con.close()


def figures(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{name:<48} p50 {statistics.median(ms):8.2f} ms   p95 {p95:8.2f} ms   "
          f"max {ms[-1]:8.2f} ms   ({len(ms)} runs)", flush=True)


async def timed(job: Callable[[], Awaitable[object]], samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        await job()
        times.append(time.perf_counter() - start)
    return times


async def reads(store: Store, seasons: list[str], samples: int) -> None:
    s = store.seasons
    figures("Seasons.of (the suggestions' read)", await timed(lambda: s.of(GUILD), samples))
    if hasattr(s, "had"):
        figures("Seasons.had (season: asked for)",
                await timed(lambda: s.had(GUILD, seasons[0]), samples))
    figures("a season's board, first page",
            await timed(lambda: s.board(GUILD, seasons[-2], 1), samples))
    figures("a member's standing in a season",
            await timed(lambda: s.standing(GUILD, seasons[-2], 7), samples))


async def carries(store: Store, last: str, count: int) -> None:
    times, season = [], last
    for _ in range(count):
        after = season_end(season)
        following = time.strftime("%Y-%m", time.gmtime(after))
        start = time.perf_counter()
        async with store.db.transaction() as tx:
            await tx.serialise([guild_key(GUILD)])
            await end_season(tx, GUILD, season, following, after)
        times.append(time.perf_counter() - start)
        season = following
    figures("the carry: a season ended, the next opened", times)


async def run(args: argparse.Namespace, path: Path) -> None:
    store = await Store.open(path)
    await store.close()
    seasons = names(args.seasons)
    print(f"seeding {args.players} players x {len(seasons)} seasons, {args.active} active in "
          "each…", flush=True)
    start = time.perf_counter()
    seed(path, args.players, seasons, args.active)
    print(f"seeded in {time.perf_counter() - start:.0f} s "
          f"({path.stat().st_size / 2**20:.0f} MiB)", flush=True)
    store = await Store.open(path)
    try:
        await reads(store, seasons, args.samples)
        await carries(store, seasons[-1], args.carries)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--seasons", type=int, default=36)
    parser.add_argument("--active", type=int, default=5_000,
                        help="players who played in each season")
    parser.add_argument("--samples", type=int, default=30, help="timed runs of each read")
    parser.add_argument("--carries", type=int, default=3, help="season ends timed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp) / "seasons.sqlite3"))


if __name__ == "__main__":
    main()
