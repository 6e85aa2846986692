"""Playing for the game rather than for points: the last hand of a game played twice from the
same position, once by ``hard`` without playing for the game and once by ``hard``, each
against ``normal``.

A game is won on the total of its hands, so a choice in the last hand may be worth more or less
than its points: ahead, a safer hand keeps the lead; behind, a bigger one may overturn it. Each
deal plays the first ``hands_per_game - 1`` hands with ``--prefix`` in both seats (``normal``:
quick; ``hard,normal``: as in ``bench/ai.py``), then the rest of the game (the last hand and
any hands while tied) from that same position four times: each of the two players in each
seat against ``normal``. So the two players meet the same scores and the same deals, and a
game's outcome differs only where their choices differ.

Reported: how the games stood before the last hand and how they ended (what playing for the
game could change at most), each player's games won and points in those hands, and the
difference in games won with its standard error over the paired outcomes.

Players: the levels of ``umtali.ai``, and ``plain``: ``hard`` without playing the last hand
for the game (``stakes``), the yardstick for it. Settings of ``HardPlayer`` may follow a name
after slashes: ``plain/budget=4000``.

Run with ``.venv/bin/python bench/stakes.py [--deals N] [--players plain,hard] [--jobs J]``.
Figures only; no pass/fail.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from umtali import RuleSet, Session
from umtali.ai import LEVELS
from umtali.ai.hard import HardPlayer
from umtali.events import GameEnded, HandEnded
from umtali.players import Player

#: ``hard`` without playing the last hand for the game.
PLAYERS: dict[str, Callable[..., Player]] = {
    "plain": lambda seed, **kw: HardPlayer(seed, for_the_game=False, **kw),
}


def maker(name: str) -> Callable[[str], Player]:
    """A level of ``LEVELS``, or a player of ``PLAYERS`` with numeric settings after slashes."""
    if name in LEVELS:
        return LEVELS[name]
    key, *settings = name.split("/")
    made = PLAYERS[key]
    kwargs = {k: float(v) if "." in v else int(v) for k, v in (x.split("=") for x in settings)}
    return lambda seed: made(seed, **kwargs)


@dataclass
class Ending:
    """The rest of one game from the last hand on, for the player under test in ``seat``."""

    won: bool
    #: The player's lead before the last hand, and over the hands from it on.
    before: int
    lead: int
    hands: int
    ms: list[float]


def prefix(seed: int, levels: tuple[str, str]) -> Session:
    """Session ``seed`` at the start of its last regular hand, ``levels`` by seat so far."""
    session = Session(RuleSet.english(), seed)
    players = [maker(levels[0])(f"{seed}:0"), maker(levels[1])(f"{seed}:1")]
    last = session.rules.hands_per_game
    while session.hand_no < last:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)))
    return session


def finish(start: Session, name: str, seat: int, seed: int) -> Ending:
    """Play the game out from ``start``: ``name`` in ``seat``, ``normal`` in the other."""
    session = start.copy()
    players: list[Player] = [LEVELS["normal"](f"{seed}:0"), LEVELS["normal"](f"{seed}:1")]
    players[seat] = maker(name)(f"{seed}:{seat}")
    a, b = session.game_scores()
    before = a - b if seat == 0 else b - a
    lead = hands = 0
    ms: list[float] = []
    while True:
        to_act = session.to_act
        view = session.view(to_act)
        t = time.perf_counter()
        move = players[to_act].choose(view)
        if to_act == seat:
            ms.append((time.perf_counter() - t) * 1000)
        for event in session.apply(move):
            if isinstance(event, HandEnded):
                x, y = event.scores
                lead += x - y if seat == 0 else y - x
                hands += 1
            elif isinstance(event, GameEnded):
                return Ending(event.winner == seat, before, lead, hands, ms)


def deal(task: tuple[int, tuple[str, str], tuple[str, ...]]) -> list[list[Ending]]:
    """For deal ``seed``: by seat, each player's ending."""
    seed, levels, names = task
    start = prefix(seed, levels)
    return [[finish(start, name, seat, seed) for name in names] for seat in (0, 1)]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def report(names: tuple[str, ...], results: list[list[list[Ending]]], seconds: float) -> None:
    cases = [pair for by_seat in results for pair in by_seat]  # one per deal and seat
    n = len(cases)
    base = [c[0] for c in cases]
    print(f"{n} games ({len(results)} deals x 2 seats), {seconds:.0f} s")
    print("lead before the last hand (player under test):")
    for lo, hi in ((0, 5), (6, 10), (11, 20), (21, 30), (31, 999)):
        share = sum(lo <= abs(e.before) <= hi for e in base) / n
        print(f"  |lead| {lo:>2}-{hi:<3}: {share:6.1%}")
    leads = [e.lead for e in base]
    mean = sum(leads) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in leads) / max(1, n - 1))
    print(f"  {names[0]}'s lead over the last hand(s): mean {mean:+.2f}, sd {sd:.1f}")
    finals = [abs(e.before + e.lead) for e in base]
    for m in (2, 5, 10):
        print(f"  games ended by a margin of {m} or less: {sum(f <= m for f in finals) / n:.1%}")
    for i, name in enumerate(names):
        ends = [c[i] for c in cases]
        wins = sum(e.won for e in ends)
        hands = sum(e.hands for e in ends)
        points = sum(e.lead for e in ends) / hands
        ms = [t for e in ends for t in e.ms]
        print(f"  {name:>14}: wins {wins}/{n} = {wins / n:.1%}; leads by {points:+.2f} "
              f"points/hand over {hands} hands; decision ms p95 {pct(ms, 0.95):.1f} "
              f"max {max(ms):.0f}")
        if i:
            diffs = [c[i].won - c[0].won for c in cases]
            d = sum(diffs) / n
            se = math.sqrt(sum((x - d) ** 2 for x in diffs) / max(1, n - 1) / n)
            changed = sum(x != 0 for x in diffs)
            pts = [c[i].lead - c[0].lead for c in cases]
            p = sum(pts) / n
            pse = math.sqrt(sum((x - p) ** 2 for x in pts) / max(1, n - 1) / n)
            print(f"  {'':>14}  vs {names[0]}: games {d:+.2%} (standard error {se:.2%}; "
                  f"{changed} outcomes changed); lead {p:+.2f} points a game (se {pse:.2f})")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="first session seed (default 1)")
    parser.add_argument("--prefix", default="normal,normal",
                        help="the levels of the first hands, by seat (default normal,normal)")
    parser.add_argument("--players", default="plain,hard",
                        help="comma-separated players under test: levels, or plain, "
                             "with settings; the first is the yardstick (default plain,hard)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    levels = tuple(args.prefix.split(","))
    assert len(levels) == 2
    names = tuple(x.strip() for x in args.players.split(",") if x.strip())
    tasks = [(args.seed + d, (levels[0], levels[1]), names) for d in range(args.deals)]
    print(f"{args.deals} deals from seed {args.seed}, first hands {args.prefix}, "
          f"players {', '.join(names)}, {args.jobs} worker process(es)")
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(deal, tasks, chunksize=1)
    report(names, results, time.perf_counter() - start)


if __name__ == "__main__":
    main()
