"""What every process pays, at its lease renewal, when another process saved one server's
settings: ``Preferences.catch_up`` on a database holding many servers' settings.

Seeds ``--servers`` servers' settings (default 100,000: each changed its language or
pictures once), then, ``--samples`` times: another store (standing for another process)
changes one server's settings, and this process catches up; and, as often, a catch-up that
finds nothing changed. Since migration 30 only the servers changed are read; before it, every
server's row at each change. Figures only, no pass/fail. Run from an older checkout, the same
steps: the figures before and after.

    .venv/bin/python bench/settings_catch_up.py [--servers 100000] [--samples 30]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.umtali.prefs import Preferences
from data.store import Store

FIRST = 10**17


def seed(path: Path, servers: int) -> None:
    con = sqlite3.connect(path)
    with con:
        con.executemany(
            "INSERT INTO guild_settings (guild_id, language, pictures) VALUES (?, ?, ?)",
            ((FIRST + i, "ru" if i % 3 == 0 else "", int(i % 5 != 0)) for i in range(servers)))
    con.close()


def figures(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    print(f"{name:<48} p50 {statistics.median(ms):8.2f} ms   p95 {p95:8.2f} ms   "
          f"max {ms[-1]:8.2f} ms   ({len(ms)} runs)", flush=True)


async def timed(before: Callable[[int], Awaitable[object]],
                job: Callable[[], Awaitable[object]], samples: int) -> list[float]:
    times = []
    for i in range(samples):
        await before(i)
        start = time.perf_counter()
        await job()
        times.append(time.perf_counter() - start)
    return times


async def run(args: argparse.Namespace, path: Path) -> None:
    store = await Store.open(path)
    await store.close()
    start = time.perf_counter()
    seed(path, args.servers)
    print(f"seeded {args.servers} servers' settings in {time.perf_counter() - start:.1f} s",
          flush=True)
    mine, other = await Store.open(path), await Store.open(path)
    try:
        prefs = Preferences(mine, lambda guild_id: None)
        await prefs.load()
        await other.change_guild_settings(FIRST, {"language": "en"})
        await prefs.catch_up()  # the first change counted since the seeding

        async def change(i: int) -> None:
            await other.change_guild_settings(FIRST + 7 * i + 1,
                                              {"pictures": bool(i % 2)})

        async def nothing(i: int) -> None:
            return None

        figures("catch-up after one server's change",
                await timed(change, prefs.catch_up, args.samples))
        figures("catch-up, nothing changed", await timed(nothing, prefs.catch_up, args.samples))
    finally:
        await mine.close()
        await other.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=30, help="timed catch-ups of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp) / "settings.sqlite3"))


if __name__ == "__main__":
    main()
