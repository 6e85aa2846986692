"""Many matches at once over real sockets: the real bot against the loopback Discord.

The bot is ``bot.py``'s ``main()`` in one or two processes (through
``tests/loopback/launch.py``), talking HTTP and the gateway to the loopback server of
``tests/loopback`` in this process, on a SQLite file or on a throwaway PostgreSQL server
(``tests/pg_server.py``; ``--backend``). With ``--processes 2`` the two share one PostgreSQL
database and each runs one shard of two (``UMTALI_SHARD_COUNT=2``, ``UMTALI_SHARD_IDS`` 0 and
1, ``UMTALI_PROCESS`` p0 and p1); the matches are spread over a guild on each shard, and
every click in a DM arrives on shard 0, as on Discord: on the DM panels every move goes to
p0, with ``/umtali play`` each match's moves go to its guild's process. Every configuration
has the same two guilds.

``--matches`` pairs of members (default 1000) each challenge, accept, and then play on the DM
panels (``--via dm``, the default: a button or a menu per action, the next action waiting for
the panel of its version to arrive) or with ``/umtali play`` (``--via slash``; its answer may
be deferred, then the follow-up counts). Each pair keeps a replica of its session to choose
greedy moves. Two phases:

- full speed: the first ``--fast`` matches (default 200) play ``--moves`` moves each back to
  back: actions per second (capacity; the answer time is then the queue);
- human pace: every match plays ``--paced-moves`` moves, each player taking 0.5 to 1.5 times
  ``--think`` seconds (default 5) over each action: the answer time's p50 and p99.

Measured: actions per second, answer time from INTERACTION_CREATE sent to the answer received
(p50, p99), the CPU of each bot process, of the PostgreSQL server and of this process (the
loopback Discord and the players), memory per process, and the load average (the machine is
shared: the figures include everyone's work). Figures only.

    nice .venv/bin/python bench/discord_load.py [--backend sqlite|postgresql] [--processes 1|2]
        [--matches 1000] [--fast 200] [--moves 30] [--think 5] [--paced-moves 10]
        [--via dm|slash]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from load_players import BenchDiscord, Pair
from load_processes import (
    Backend,
    bot_processes,
    cpu_seconds,
    guild_channels,
    load_average,
    rss_kib,
)

#: Matches opening at once (challenge, accept, thread, table, DMs): more only queue.
OPENING = 100


@dataclass
class Meter:
    """CPU and wall time over one phase."""

    pids: list[int]
    backend: Backend
    t0: float = field(default_factory=time.perf_counter)
    bots: list[float] = field(default_factory=list)
    db: float = 0.0
    own: float = field(default_factory=time.process_time)

    def __post_init__(self) -> None:
        self.bots = [cpu_seconds(pid) for pid in self.pids]
        self.db = self.backend.cpu_seconds()

    def report(self, made: int) -> str:
        elapsed = time.perf_counter() - self.t0
        bots = [cpu_seconds(pid) - before for pid, before in zip(self.pids, self.bots,
                                                                 strict=True)]
        db = self.backend.cpu_seconds() - self.db
        own = time.process_time() - self.own
        per = ", ".join(f"p{n} {cpu:.1f} s ({cpu / elapsed:.0%} of a core, "
                        f"{cpu / made * 1000:.2f} ms/move)" for n, cpu in enumerate(bots))
        line = f"CPU over {elapsed:.1f} s: bot {per}"
        if self.backend.pg is not None:
            line += f"; PostgreSQL {db:.1f} s ({db / elapsed:.0%}, {db / made * 1000:.2f} ms/move)"
        return line + (f"; loopback Discord and players {own:.1f} s "
                       f"({own / made * 1000:.2f} ms/move); load average now {load_average()}")


def percentiles(latencies: list[float]) -> str:
    latencies.sort()
    return (f"p50 {statistics.median(latencies):.0f} ms, "
            f"p99 {latencies[int(0.99 * (len(latencies) - 1))]:.0f} ms, "
            f"max {latencies[-1]:.0f} ms")


async def phase(pairs: list[Pair], moves: int, via: str, think: float,
                meter: Meter) -> tuple[int, float, list[float]]:
    """Every pair plays ``moves`` moves: moves made, seconds, answer times (ms)."""
    # The load generator's own collector, scanning every message the server keeps, would
    # pause it for up to a second: its pauses are not the bot's, so it is off while timing.
    gc.collect()
    gc.disable()
    latencies: list[float] = []
    try:
        made = sum(await asyncio.gather(*(p.play(moves, latencies, via, think)
                                          for p in pairs)))
    finally:
        gc.enable()
    return made, time.perf_counter() - meter.t0, latencies


async def quiet(server: BenchDiscord) -> None:
    """Until the bots' outboxes drained: a second without a REST call."""
    seen = -1
    while seen != len(server.calls):
        seen = len(server.calls)
        await asyncio.sleep(1.0)


async def full_speed(server: BenchDiscord, fast: list[Pair], args: argparse.Namespace,
                     meter: Meter) -> None:
    calls, seq = len(server.calls), server._seq
    made, elapsed, latencies = await phase(fast, args.moves, args.via, 0.0, meter)
    print(f"full speed: {made} moves by {len(fast)} matches back to back in "
          f"{elapsed:.1f} s: {made / elapsed:,.0f} actions/s; answer {percentiles(latencies)}")
    print("  " + meter.report(made))
    await quiet(server)
    rest = server.calls[calls:]
    callbacks = sum(1 for c in rest if c.path.endswith("/callback"))
    print(f"  REST calls per move besides the callback: {(len(rest) - callbacks) / made:.2f} "
          f"(429s: {sum(1 for c in rest if c.status == 429)}); gateway events per move: "
          f"{(server._seq - seq) / made:.2f}", flush=True)


async def run(args: argparse.Namespace, workdir: Path) -> None:
    server = BenchDiscord()
    await server.start()
    channels = guild_channels(server)  # before the bots connect: in their READY
    backend = Backend(args.backend, workdir)
    bots = []
    print(f"{args.processes} bot process(es) on {args.backend}, via {args.via}; "
          f"{os.cpu_count()} CPUs, load average {load_average()} at the start", flush=True)
    try:
        await backend.start()
        bots = bot_processes(server, backend, args.processes)
        for bot in bots:
            await bot.start()
        pids = [bot.proc.pid for bot in bots if bot.proc is not None]
        await asyncio.sleep(0.5)
        rss_idle = [rss_kib(pid) for pid in pids]
        pairs = [Pair(server, channels[i % len(channels)], i) for i in range(args.matches)]
        opening = asyncio.Semaphore(OPENING)

        async def start(pair: Pair) -> None:
            async with opening:
                await pair.start(backend.session)

        meter = Meter(pids, backend)
        await asyncio.gather(*(start(p) for p in pairs))
        print(f"{args.matches} matches opened (challenge, accept, thread, table, two DMs "
              f"each; {OPENING} at a time) in {time.perf_counter() - meter.t0:.1f} s",
              flush=True)
        rss_open = [rss_kib(pid) for pid in pids]

        if args.fast:
            await full_speed(server, pairs[:args.fast], args, Meter(pids, backend))
        if args.think:
            deferred = sum(p.deferred for p in pairs)
            meter = Meter(pids, backend)
            made, elapsed, latencies = await phase(pairs, args.paced_moves, args.via,
                                                   args.think, meter)
            print(f"human pace: {made} moves by {len(pairs)} matches, each player taking "
                  f"{args.think / 2:g}-{args.think * 1.5:g} s over each action, in "
                  f"{elapsed:.1f} s ({made / elapsed:,.0f} actions/s); answer "
                  f"{percentiles(latencies)}")
            print("  " + meter.report(made))
            if args.via == "slash":
                print(f"  deferred answers (timed to their follow-up): "
                      f"{sum(p.deferred for p in pairs) - deferred}")
        if args.via == "dm":
            print(f"greedy moves a DM panel did not offer (its menu shows 25 choices), "
                  f"replaced by the first legal one it offers: "
                  f"{sum(p.substituted for p in pairs)}")
        rss_play = [rss_kib(pid) for pid in pids]
        for n in range(len(pids)):
            print(f"p{n} memory: {rss_idle[n] / 1024:.0f} MiB idle, "
                  f"{rss_open[n] / 1024:.0f} MiB with the matches open, "
                  f"{rss_play[n] / 1024:.0f} MiB after playing")
        print(f"load average at the end {load_average()}")
        assert not server.unknown and not server.errors, (server.unknown, server.errors)
    except BaseException:
        for n, bot in enumerate(bots):  # the logs go with the temporary directory
            tail = bot.log.read_text(errors="replace").splitlines()[-15:]
            print(f"p{n}'s log ends:", *tail, sep="\n  ", file=sys.stderr)
        raise
    finally:
        for bot in bots:
            await bot.stop()
        await backend.stop()
        await server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1,
                        help="bot processes (2: one shard each, on postgresql only)")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--fast", type=int, default=200,
                        help="matches playing back to back in the full-speed phase "
                             "(0: no full-speed phase)")
    parser.add_argument("--moves", type=int, default=30, help="moves per match at full speed")
    parser.add_argument("--think", type=float, default=5.0,
                        help="seconds a player takes over each action at human pace "
                             "(0: no human-pace phase)")
    parser.add_argument("--paced-moves", type=int, default=10,
                        help="moves per match at human pace")
    parser.add_argument("--via", choices=("dm", "slash"), default="dm",
                        help="play on the DM panels (buttons and menus) or with /umtali play")
    args = parser.parse_args()
    if args.processes > 1 and args.backend != "postgresql":
        parser.error("two processes share one database: --backend postgresql")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    main()
