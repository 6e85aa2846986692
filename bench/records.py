"""Records at scale: leaderboard and stats reads, and recording a result, on a big database.

Seeds ``--sessions`` finished sessions (default 100,000) among ``--players`` people (default
10,000) on ``--guilds`` servers, each through the store as the bot ends a session
(``create_match`` then ``finish_match``: result, hands, history lines, stats and both ratings in
one transaction). Seeded sessions carry made-up scores and no moves, so that seeding does not
replay 100,000 sessions; the timed recordings below use whole sessions played by the engine.

Then times, on that database:
- the leaderboard (what ``/umtali leaderboard`` reads): first, middle and last page, one server
  and all servers;
- stats (what ``/umtali stats member versus`` reads): the record here and everywhere with both
  ranks, the recent sessions, and a head-to-head;
- recording a result: the last move of a whole played session, saved with its result (the
  hand details from its hand log, stats, ratings), next to an ordinary move of the same
  sessions and the replay alone; and a forfeit (a result with no moves to replay).

Figures only, no pass/fail (machines are noisy).

    .venv/bin/python bench/records.py [--sessions 100000] [--players 10000] [--guilds 20]
                                      [--samples 300] [--played 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data.models import Finish
from data.records import GLOBAL, replay
from data.store import Store
from umtali.codec import session_to_json
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session

GUILD0 = 10**17  # server ids like Discord's
FRESH = json.dumps(session_to_json(Session(RuleSet.english(), 1)))


def made_up_finish(rng: random.Random) -> Finish:
    """A plausible result: best of three games of four hands, one in ten a forfeit."""
    winner = rng.randrange(2)
    won = [0, 0]
    if rng.random() < 0.1:
        if rng.random() < 0.5:  # given up in the second game, after one was won
            won[rng.randrange(2)] = 1
        how = rng.choice(("resigned", "timed out"))
        hands = [4] * sum(won) + [rng.randrange(1, 4)]
    else:
        won[winner], won[1 - winner] = 2, rng.randrange(2)
        how = "played out"
        hands = [4] * sum(won)
    games = [[(rng.randrange(60), rng.randrange(60)) for _ in range(n)] for n in hands]
    return Finish(winner, how, (won[0], won[1]), json.dumps(games))


async def seed(store: Store, sessions: int, players: int, guilds: int) -> float:
    rng = random.Random(1)
    start = time.perf_counter()
    for i in range(sessions):
        a, b = rng.sample(range(1, players + 1), 2)
        guild = GUILD0 + rng.randrange(guilds)
        match_id = await store.create_match(
            guild_id=guild, channel_id=1, players=((a, f"player {a}"), (b, f"player {b}")),
            variant="english", turn_timer=0, state=FRESH, deadline=None, now=float(i))
        await store.finish_match(match_id=match_id, version=0, state="{}",
                                 finish=made_up_finish(rng), now=float(i))
        if (i + 1) % 10_000 == 0:
            print(f"  seeded {i + 1} sessions ({time.perf_counter() - start:.0f} s)",
                  flush=True)
    return time.perf_counter() - start


def figures(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{name:<44} p50 {statistics.median(ms):6.2f} ms   p95 {p95:6.2f} ms   "
          f"max {ms[-1]:6.2f} ms   ({len(ms)} runs)")


async def timed(job: Callable[[], Awaitable[object]], samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        await job()
        times.append(time.perf_counter() - start)
    return times


async def reads(store: Store, players: int, samples: int) -> None:
    rng = random.Random(2)
    records = store.records
    for label, scope in (("one server", GUILD0), ("all servers", GLOBAL)):
        pages = (await records.leaderboard(scope, 1)).pages
        for which, page in (("first", 1), ("middle", max(1, pages // 2)), ("last", pages)):

            def board(scope: int = scope, page: int = page) -> Awaitable[object]:
                return records.leaderboard(scope, page)

            figures(f"leaderboard, {label}, {which} page ({page} of {pages})",
                    await timed(board, samples))

    async def stats() -> None:
        user, versus = rng.randrange(1, players + 1), rng.randrange(1, players + 1)
        guild = GUILD0 + rng.randrange(3)
        await records.record(guild, user)
        await records.record(GLOBAL, user)
        await records.head_to_head(guild, user, versus)
        await records.recent(guild, user)

    figures("stats (both records and ranks, history, h2h)", await timed(stats, samples))


def played_moves(seed_: int) -> list[str]:
    s = Session(RuleSet.english(), seed_)
    while not s.over:
        s.apply(GreedyPlayer().choose(s.view(s.to_act)))
    return s.move_texts()


async def recording(store: Store, played: int) -> None:
    from cogs.umtali.saved import finish_of

    ends, moves_, forfeits, replays = [], [], [], []
    for n in range(played):
        moves = played_moves(1000 + n)
        session = Session(RuleSet.english(), 1000 + n)
        match_id = await store.create_match(
            guild_id=GUILD0, channel_id=1, players=((1, "player 1"), (2, "player 2")),
            variant="english", turn_timer=0, state=json.dumps(session_to_json(session)),
            deadline=None)
        for version, move in enumerate(moves):
            seat = session.to_act
            session.apply_text(move)
            state = json.dumps(session_to_json(session))
            finish = finish_of(session) if session.over else None
            start = time.perf_counter()
            await store.record_move(match_id=match_id, version=version, seat=seat, move=move,
                                    state=state, deadline=None, finish=finish)
            if finish is None:
                moves_.append(time.perf_counter() - start)
            else:
                ends.append(time.perf_counter() - start)
                start = time.perf_counter()
                replay(state)
                replays.append(time.perf_counter() - start)
        forfeit = await store.create_match(
            guild_id=GUILD0, channel_id=1, players=((3, "player 3"), (4, "player 4")),
            variant="english", turn_timer=0, state=FRESH, deadline=None)
        start = time.perf_counter()
        await store.finish_match(match_id=forfeit, version=0, state=FRESH,
                                 finish=Finish(0, "resigned", (0, 0), "[]"))
        forfeits.append(time.perf_counter() - start)
    figures("an ordinary move (saved, no result)", moves_)
    figures("last move of a played session, with result", ends)
    figures("  the hand details alone (hand log)", replays)
    figures("a forfeit, with result (nothing to replay)", forfeits)


async def run(args: argparse.Namespace, path: Path) -> None:
    # Seeded sessions have no moves to replay: that is expected here, not worth a warning each.
    logging.getLogger("data.records").setLevel(logging.ERROR)
    store = await Store.open(path)
    try:
        print(f"seeding {args.sessions} sessions among {args.players} players on "
              f"{args.guilds} servers…", flush=True)
        took = await seed(store, args.sessions, args.players, args.guilds)
        print(f"seeded in {took:.0f} s ({took / args.sessions * 1000:.2f} ms a session, "
              f"{path.stat().st_size / 2**20:.0f} MiB)")
        await reads(store, args.players, args.samples)
        await recording(store, args.played)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--guilds", type=int, default=20)
    parser.add_argument("--samples", type=int, default=300, help="timed runs of each read")
    parser.add_argument("--played", type=int, default=20,
                        help="whole sessions played and recorded for the recording figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp) / "records.sqlite3"))


if __name__ == "__main__":
    main()
