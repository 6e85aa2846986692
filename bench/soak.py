"""A seeded fault soak of whole sessions through the real bot and the loopback Discord.

Members play sessions (best of three games of four hands, some cut short by a resignation)
against each other, and now and then one against the computer, through ``bot.py`` running in
a subprocess; at steps the seed chooses, a fault: the bot killed (SIGKILL) and started again,
or stopped (SIGTERM, a deploy) with a move sent just before or after, which must exit 0 and
answer the move, either made or turned away as the bot restarts; the gateway dropped or down
a few seconds, REST calls answered 429/500/502 or 403 50001 / 404 10003 (a DM, the table, the
thread), held or delayed, a move clicked twice at once, an old panel's button clicked,
``/umtali table`` posted again, a member's DMs closed to the bot or opened again. After every
step and at each session's end: no public message names a card in a hand; each session ends
with one recorded result and the ratings moved once, counted once into its players' stats,
which name them by their Discord-wide name on all servers and by their nickname on the
server; the saved state is the engine's replay of the saved moves; the table and the panels
show what the database holds; a match whose channel is lost and a player's DMs refused is
abandoned; DMs refused are tried once a hand at most (once more after a restart) and told in
the channel once while they stay closed; no ERROR in the bot's log but for a cause the
soak made on purpose (listed); no task died with an unhandled exception. Each broken invariant
is printed with the seed and the step that reproduce it.

    .venv/bin/python bench/soak.py [--sessions 3] [--seed 1] [--faults kill,rest,...]
        [--rate 0.08] [--seeds N]   (N seeds from --seed on, one after the other)
        [--processes 2]   (two bot processes sharing the database, a shard each: each click
                           on a DM panel reaches the one not holding the match)
        [--backend postgresql]   (the database on a throwaway PostgreSQL server, as several
                                  processes are run, in place of an SQLite file)

Exits 1 if an invariant broke.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest

from tests.loopback.harness import loopback_server
from tests.loopback.saved_db import done_with
from tests.loopback.soak import Report, Soak
from tests.loopback.soak_faults import FAULTS
from tests.loopback.trace import write_trace
from tests.pg_server import PgServer, start_server


async def soak(seed: int, sessions: int, faults: tuple[str, ...], rate: float,
               processes: int = 1, postgres: PgServer | None = None) -> Report:
    with tempfile.TemporaryDirectory(prefix="umtali-soak-") as workdir, \
            pytest.MonkeyPatch.context() as monkeypatch:
        trace = Path(workdir) / "loopback.txt"
        database = name = None
        if postgres is not None:
            name = f"soak_{seed}_{time.time_ns()}"
            await postgres.admin(f"CREATE DATABASE {name}")
            database = postgres.url(name)
        try:
            async with loopback_server(monkeypatch) as server:
                try:
                    report = await Soak(server, Path(workdir), seed, faults, rate,
                                        processes=processes, database=database).run(sessions)
                finally:
                    write_trace(server, trace)
        except AssertionError as e:  # the server's own check on the way out
            report = Report(seed, broken=[f"seed {seed}: {e}"])
            print(f"BROKEN seed {seed}: {e}", flush=True)
        finally:
            if database is not None:
                done_with(database)
        if report.broken:
            kept = Path(tempfile.gettempdir()) / f"umtali-soak-{seed}"
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(workdir, kept)
            if postgres is not None and name is not None:
                postgres.dump(name, kept / "umtali.sql")
            print(f"the bot's log and database, and what Discord saw: {kept}", flush=True)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=1, help="seeds to run, from --seed on")
    parser.add_argument("--faults", default=",".join(FAULTS),
                        help=f"of {','.join(FAULTS)}; empty: none")
    parser.add_argument("--rate", type=float, default=0.08, help="a step's chance of a fault")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1,
                        help="2: two bot processes sharing the database, a shard each")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                        help="postgresql: a throwaway PostgreSQL server's database")
    args = parser.parse_args()
    faults = tuple(f for f in args.faults.split(",") if f)
    if unknown := set(faults) - set(FAULTS):
        parser.error(f"unknown faults: {sorted(unknown)}")
    # Stopped (SIGTERM), the soak still stops the bot process it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    broken = 0
    with contextlib.ExitStack() as stack:
        postgres = None
        if args.backend == "postgresql":
            postgres = start_server()
            stack.callback(postgres.stop)
        for seed in range(args.seed, args.seed + args.seeds):
            broken += run_seed(seed, args, faults, postgres)
    print(f"{broken} broken invariant(s)", flush=True)
    return 1 if broken else 0


def run_seed(seed: int, args: argparse.Namespace, faults: tuple[str, ...],
             postgres: PgServer | None) -> int:
    """One seed's soak, its report printed: how many invariants broke."""
    started = time.monotonic()
    report = asyncio.run(soak(seed, args.sessions, faults, args.rate, args.processes,
                              postgres))
    took = time.monotonic() - started
    print(f"seed {seed}: {report.sessions} sessions ({report.practice} practice), "
          f"{report.steps} steps in {took:.0f} s; ended {dict(report.ended)}", flush=True)
    print(f"  faults: {dict(sorted(report.faults.items()))}", flush=True)
    if report.stops:
        stops = sorted(report.stops)
        print(f"  stops: {len(stops)}, SIGTERM to exit: median {median(stops):.2f} s, "
              f"max {stops[-1]:.2f} s", flush=True)
    if report.meant:
        print(f"  ERRORs for causes made on purpose: {report.meant}", flush=True)
    return len(report.broken)


if __name__ == "__main__":
    sys.exit(main())
