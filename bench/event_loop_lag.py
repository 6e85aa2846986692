"""How late the event loop wakes up while hard computer players think: in threads (the old
way) against in worker processes (``cogs.umtali.thinking``).

``--players`` practice matches (default 8) each have a ``hard`` computer, and all play at once:
the computer's decisions go through ``Computers._choose`` (the bot's own code: the player kept
per match, caught up by ``resume`` at its first turn, thinking in the pool), the other seat
plays ``normal`` moves in between, until each computer made ``--decisions`` decisions
(default 40, the first few hands of its session). The old way is the code it replaced: the
same kept player, its ``choose`` run in a thread with ``asyncio.to_thread``.

Meanwhile a coroutine sleeps 5 ms in a loop; how much later than 5 ms it wakes up is the lag
every other match's clicks and timers would see. Reported for each way: that lateness (p50,
p99, max), and the computer's decision time as its match waits for it (p50, p95, max), for
all decisions and for the discards (where the search runs; draws never search, so through
the pool they show what shipping a decision costs). Run with no players thinking first, as a
baseline. Figures only; the machine's other load shows in them, so run it more than once.

    .venv/bin/python bench/event_loop_lag.py [--players 8] [--decisions 40] [--workers N]
                                             [--ways idle,thread,pool]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.umtali.computer import Computers
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.thinking import DEFAULT_WORKERS
from umtali.ai import LEVELS
from umtali.moves import Move, MoveKind
from umtali.rules import RuleSet
from umtali.session import Session

#: The probe's sleep, in seconds.
TICK = 0.005
COMPUTER = 1

Choose = Callable[[LiveMatch, int, Session], Awaitable[Move]]


def practice_match(match_id: int) -> LiveMatch:
    session = Session(RuleSet.named("english"), 1000 + match_id)
    return LiveMatch(
        id=match_id, guild_id=1, channel_id=1, table_message_id=None, player_ids=(1, 2),
        names=("ada", "Computer (hard)"), turn_timer=0, session=session, deadline=None,
        warned=False, dm_channel_ids=[None, None], dm_message_ids=[None, None],
        dm_refused=[False, False], pending=[], computer_seat=COMPUTER, computer_level="hard",
    )


def thread_way(computers: Computers) -> Choose:
    """The code the pool replaced: the kept player's ``choose`` in a thread."""

    async def choose(live: LiveMatch, seat: int, session: Session) -> Move:
        player = await computers._player(live, seat, session)
        return await asyncio.to_thread(player.choose, session.view(seat))

    return choose


async def play(live: LiveMatch, choose: Choose, decisions: int,
               times: list[tuple[bool, float]]) -> None:
    """Play the match until its computer made ``decisions`` decisions."""
    person = LEVELS["normal"]("person")
    made = 0
    session = live.session
    while made < decisions and not session.over:
        seat = session.to_act
        if seat == COMPUTER:
            view = session.view(seat)
            start = time.perf_counter()
            move = await choose(live, seat, live.session)
            times.append((view.legal_moves[0].kind is MoveKind.DISCARD,
                          time.perf_counter() - start))
            made += 1
        else:
            move = person.choose(session.view(seat))
            # A person takes a moment: the other matches' computers think meanwhile.
            await asyncio.sleep(0)
        session.apply(move, seat)


async def probe(stop: asyncio.Event, late: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(TICK)
        late.append(time.perf_counter() - start - TICK)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def ms(x: float) -> str:
    return f"{x * 1000:7.1f}"


async def run(way: str, players: int, decisions: int, workers: int) -> None:
    computers = Computers(cast(MatchService, None), pause=0, workers=workers)
    if way == "pool":
        # As in the bot, the workers start during the computer's pause before its first turn.
        computers.thinking.warm()
        await asyncio.sleep(2)
    choose: Choose = thread_way(computers) if way == "thread" else computers._choose
    late: list[float] = []
    times: list[tuple[bool, float]] = []
    stop = asyncio.Event()
    prober = asyncio.create_task(probe(stop, late))
    start = time.perf_counter()
    if way == "idle":
        await asyncio.sleep(3)
    else:
        await asyncio.gather(*(play(practice_match(i), choose, decisions, times)
                               for i in range(players)))
    wall = time.perf_counter() - start
    stop.set()
    await prober
    await computers.close()
    label = "idle (no one thinking)" if way == "idle" else (
        f"{way}: {players} hard players" + (f", {workers} workers" if way == "pool" else ""))
    print(f"{label}: {len(times)} decisions in {wall:.1f} s")
    print(f"  loop lag ms      p50 {ms(pct(late, 0.5))}  p99 {ms(pct(late, 0.99))}  "
          f"max {ms(max(late))}  ({len(late)} wake-ups)")
    for name, xs in (("all", [t for _, t in times]),
                     ("discards", [t for d, t in times if d]),
                     ("draws", [t for d, t in times if not d])):
        if xs:
            print(f"  decision ms {name:>9} p50 {ms(pct(xs, 0.5))}  p95 {ms(pct(xs, 0.95))}  "
                  f"max {ms(max(xs))}  (n={len(xs)})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument("--ways", default="idle,thread,pool")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    for way in args.ways.split(","):
        await run(way, args.players, args.decisions, args.workers)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    asyncio.run(main())
