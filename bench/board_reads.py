"""Boards read while many matches move: do the reads hold the moves (and the event loop) up?

Seeds ``--sessions`` finished sessions among ``--players`` people (as ``bench/records.py``
does, through the store), then starts ``--matches`` matches through ``MatchService`` (Discord a
stand-in that accepts every call, as in ``bench/discord_matches.py``) on one store: a SQLite file
or a throwaway PostgreSQL server (``tests/pg_server.py``; ``--backend``). Three phases of
``--seconds`` each:

- moves alone: every match moves every ``--pace`` seconds on average (random legal moves);
- moves and reads: the same, while ``--readers`` tasks read back to back what ``/umtali
  leaderboard`` and ``/umtali stats`` read (a random page of a server's board and of the board
  of all servers, a member's record here and everywhere, a head-to-head);
- reads alone.

Measured: each move's handling time (``MatchService.act``), each read's time, and the event
loop's lag (how late a 5 ms sleep wakes up). Figures only, no pass/fail.

    .venv/bin/python bench/board_reads.py [--backend sqlite|postgresql] [--sessions 5000]
        [--players 1000] [--matches 40] [--pace 0.05] [--readers 4] [--seconds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from discord_matches import StandInDiscord  # noqa: E402  (bench/discord_matches.py)
from records import GUILD0, seed  # noqa: E402  (bench/records.py)

from cogs.umtali.live import LiveMatch  # noqa: E402
from cogs.umtali.service import MatchService  # noqa: E402
from data.records import GLOBAL  # noqa: E402
from data.store import Store  # noqa: E402
from umtali.rules import RuleSet  # noqa: E402


def line(name: str, ms: list[float]) -> str:
    if not ms:
        return f"{name:<34} (none)"
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (f"{name:<34} n {len(ms):6d}  p50 {statistics.median(ms):7.2f} ms  "
            f"p99 {p99:7.2f} ms  max {ms[-1]:7.1f} ms")


async def phase(name: str, svc: MatchService, store: Store, lives: list[LiveMatch],
                args: argparse.Namespace, moves: bool, reads: bool) -> None:
    rng = random.Random(hash(name) & 0xFFFF)
    stop = time.perf_counter() + args.seconds
    move_ms: list[float] = []
    read_ms: dict[str, list[float]] = {"board": [], "stats": []}
    lag_ms: list[float] = []

    async def ticker() -> None:
        while time.perf_counter() < stop:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            lag_ms.append((time.perf_counter() - t - 0.005) * 1000)

    async def mover(index: int) -> None:
        live = lives[index]
        restarted = 0
        while time.perf_counter() < stop:
            if live.over:
                restarted += 1
                live = await svc.start(
                    guild_id=GUILD0 + 1, channel_id=50_000 + index * 1000 + restarted,
                    players=((10**6 + 2 * index, "a"), (10**6 + 2 * index + 1, "b")),
                    rules=RuleSet.english(), turn_timer=300, seed=index * 1000 + restarted)
                lives[index] = live
            session = live.session
            seat = session.to_act
            legal = session.legal_moves()
            move = legal[rng.randrange(len(legal))]
            start = time.perf_counter()
            outcome = await svc.act(live, live.player_ids[seat], move,
                                    live.version)
            move_ms.append((time.perf_counter() - start) * 1000)
            assert outcome.ok, outcome.error
            await asyncio.sleep(rng.expovariate(1 / args.pace))

    async def reader() -> None:
        records = store.records
        pages = {GUILD0: (await records.leaderboard(GUILD0, 1)).pages,
                 GLOBAL: (await records.leaderboard(GLOBAL, 1)).pages}

        while time.perf_counter() < stop:
            scope = rng.choice((GUILD0, GLOBAL))
            page = rng.randrange(1, pages[scope] + 1)
            start = time.perf_counter()
            await records.leaderboard(scope, page)
            read_ms["board"].append((time.perf_counter() - start) * 1000)
            user, versus = rng.randrange(1, args.players + 1), rng.randrange(1, args.players + 1)
            start = time.perf_counter()
            await records.record(GUILD0, user)
            await records.record(GLOBAL, user)
            await records.head_to_head(GUILD0, user, versus)
            await records.recent(GUILD0, user)
            read_ms["stats"].append((time.perf_counter() - start) * 1000)

    tasks = [ticker()]
    if moves:
        tasks += [mover(i) for i in range(len(lives))]
    if reads:
        tasks += [reader() for _ in range(args.readers)]
    await asyncio.gather(*tasks)
    await svc.flush()
    print(f"--- {name} ({args.seconds:.0f} s)")
    if moves:
        print(line("move handled (act)", move_ms))
    if reads:
        print(line("leaderboard page", read_ms["board"]))
        print(line("stats (2 records, h2h, recent)", read_ms["stats"]))
    print(line("event loop lag (5 ms sleep)", lag_ms))
    sys.stdout.flush()


async def run(args: argparse.Namespace, target: str | Path) -> None:
    logging.getLogger("data.records").setLevel(logging.ERROR)
    store = await Store.open(target)
    svc = MatchService(StandInDiscord(), store)  # type: ignore[arg-type]
    try:
        took = await seed(store, args.sessions, args.players, 20)
        print(f"seeded {args.sessions} sessions among {args.players} players in {took:.0f} s",
              flush=True)
        lives: list[LiveMatch] = []
        for i in range(args.matches):
            live = await svc.start(
                guild_id=GUILD0 + 1, channel_id=10_000 + i,
                players=((10**6 + 2 * i, f"p{2 * i}"), (10**6 + 2 * i + 1, f"p{2 * i + 1}")),
                rules=RuleSet.english(), turn_timer=300, seed=i)
            await svc.open_table(live)
            lives.append(live)
        await svc.flush()
        await phase("moves alone", svc, store, lives, args, moves=True, reads=False)
        await phase("moves and reads", svc, store, lives, args, moves=True, reads=True)
        await phase("reads alone", svc, store, lives, args, moves=False, reads=True)
    finally:
        await svc.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--pace", type=float, default=0.05,
                        help="mean seconds between a match's moves")
    parser.add_argument("--readers", type=int, default=4,
                        help="tasks reading boards and stats back to back")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    args = parser.parse_args()
    if args.backend == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(args, Path(tmp) / "bench.sqlite3"))
        return
    from tests.pg_server import start_server

    pg = start_server()
    try:
        asyncio.run(pg.admin("CREATE DATABASE bench"))
        asyncio.run(run(args, pg.url("bench")))
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
