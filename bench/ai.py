"""Computer levels against each other: strength and decision time.

Each listed level plays each lower listed level over ``--games`` games (default 400). A game is
the first game of a session: ``hands_per_game`` hands, more while tied, as the engine plays it.
Every deal is played twice, the levels swapping seats on the same seed, so luck of the cards
cancels. Reported: games won with a 95% Wilson interval, average points per hand, and each
level's decision time (p50/p95/max over every choice it made, and over the choices that had more
than one legal move).

Run with ``.venv/bin/python bench/ai.py [--games N] [--levels easy,normal,hard] [--jobs J]``;
``--hard-budget B`` and ``--hard-discard-budget D`` try ``hard`` with other budgets of playout
moves for its meld and discard searches (``HardPlayer``'s ``budget`` and ``discard_budget``);
``--hard-learned`` chooses its discards by the value learned from self-play (``learned``).
Figures only; no pass/fail.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from umtali import RuleSet, Session
from umtali.ai import LEVELS, HardPlayer
from umtali.events import GameEnded, HandEnded
from umtali.players import Player


@dataclass
class GameResult:
    #: Levels by seat.
    levels: tuple[str, str]
    winner_level: str
    #: Each hand's score, by level.
    hand_points: list[dict[str, int]] = field(default_factory=list)
    #: Decision times in ms by level: every choice, and choices with more than one legal move.
    times: dict[str, list[float]] = field(default_factory=dict)
    choice_times: dict[str, list[float]] = field(default_factory=dict)


#: ``HardPlayer``'s settings for ``hard`` here, from the command line (none: its own).
Settings = tuple[tuple[str, float], ...]


def player(level: str, seed: str, hard: Settings) -> Player:
    if level == "hard" and hard:
        return HardPlayer(seed, **dict(hard))  # type: ignore[arg-type]
    return LEVELS[level](seed)


def play_game(task: tuple[str, str, int, str, Settings]) -> GameResult:
    """The first game of the session of ``seed``, ``first`` in seat 0 and ``second`` in seat 1."""
    first, second, seed, variant, hard = task
    levels = (first, second)
    session = Session(RuleSet.named(variant), seed)
    players = [player(first, f"{seed}:0", hard), player(second, f"{seed}:1", hard)]
    return play(session, players, levels)


def play(
    session: Session,
    players: Sequence[Player],
    levels: tuple[str, str],
    before: Callable[[Player], None] | None = None,
) -> GameResult:
    """The session's first game played out by ``players`` (seat by seat), timed; ``before``
    is shown each player about to choose (``bench/ceiling.py`` hands it the truth)."""
    result = GameResult(levels, "")
    for level in levels:
        result.times.setdefault(level, [])
        result.choice_times.setdefault(level, [])
    while True:
        seat = session.to_act
        view = session.view(seat)
        if before is not None:
            before(players[seat])
        start = time.perf_counter()
        move = players[seat].choose(view)
        ms = (time.perf_counter() - start) * 1000
        level = levels[seat]
        result.times[level].append(ms)
        if len(view.legal_moves) > 1:
            result.choice_times[level].append(ms)
        for event in session.apply(move):
            if isinstance(event, HandEnded):
                result.hand_points.append({levels[0]: event.scores[0], levels[1]: event.scores[1]})
            elif isinstance(event, GameEnded):
                result.winner_level = levels[event.winner]
                return result


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def deal_leads(results: list[GameResult], upper: str, lower: str) -> list[float]:
    """``upper``'s lead a hand over each deal's two games (both seats together)."""
    leads = []
    for a, b in zip(results[::2], results[1::2], strict=True):
        both = a.hand_points + b.hand_points
        leads.append(sum(h[upper] - h[lower] for h in both) / len(both))
    return leads


def report(upper: str, lower: str, results: list[GameResult], seconds: float) -> None:
    n = len(results)
    wins = sum(r.winner_level == upper for r in results)
    lo, hi = wilson(wins, n)
    hands = [h for r in results for h in r.hand_points]
    leads = deal_leads(results, upper, lower)
    mean = sum(leads) / len(leads)
    se = math.sqrt(sum((x - mean) ** 2 for x in leads) / max(1, len(leads) - 1) / len(leads))
    print(f"{upper} vs {lower}: {n} games ({n // 2} deals x 2 seats), {len(hands)} hands, "
          f"{seconds:.0f} s")
    print(f"  {upper} wins {wins}/{n} = {wins / n:.1%} (95% CI {lo:.1%} to {hi:.1%}); "
          f"leads by {mean:+.2f} points/hand (standard error {se:.2f})")
    for level in (upper, lower):
        avg = sum(h[level] for h in hands) / len(hands)
        every = [t for r in results for t in r.times[level]]
        chosen = [t for r in results for t in r.choice_times[level]]
        print(f"  {level:>6}: {avg:5.1f} points/hand; decision ms p50 {pct(every, 0.5):.2f} "
              f"p95 {pct(every, 0.95):.2f} max {max(every):.0f} ({len(every)} decisions); "
              f"with a choice: p50 {pct(chosen, 0.5):.2f} p95 {pct(chosen, 0.95):.2f} "
              f"({len(chosen)})")
    sys.stdout.flush()


def save(path: str, upper: str, lower: str, results: list[GameResult]) -> None:
    """Each deal's lead a hand and games won by ``upper``, and every decision time, as JSON."""
    wins = [sum(r.winner_level == upper for r in pair)
            for pair in zip(results[::2], results[1::2], strict=True)]
    times = [t for r in results for t in r.times[upper]]
    Path(path).write_text(json.dumps(
        {"leads": deal_leads(results, upper, lower), "wins": wins, "times": times}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400,
                        help="games per pairing, rounded up to even (default 400; quick: 20)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help=f"comma-separated levels, weakest first (default {','.join(LEVELS)})")
    parser.add_argument("--seed", type=int, default=1, help="first session seed (default 1)")
    parser.add_argument("--variant", choices=["english", "russian"], default="english")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(),
                        help="worker processes (default: one per core)")
    parser.add_argument("--hard-budget", type=int, default=None,
                        help="hard's playout moves per meld search (default: its own)")
    parser.add_argument("--hard-discard-budget", type=int, default=None,
                        help="hard's playout moves per discard search (default: its own)")
    parser.add_argument("--hard-particles", type=int, default=None,
                        help="hard's guesses of the opponent's hand (umtali/ai/particles.py)")
    parser.add_argument("--hard-sharpness", type=float, default=None,
                        help="how sharply those guesses weigh the opponent's discards")
    parser.add_argument("--hard-blend", type=float, default=None,
                        help="how strongly those guesses weigh hard's own worlds (0: the "
                        "worlds deal the guesses themselves)")
    parser.add_argument("--hard-learned", action="store_const", const=1.0, default=None,
                        help="hard's discards chosen by the value learned from self-play "
                        "(umtali/ai/value.py) in place of its look ahead")
    parser.add_argument("--save", default=None,
                        help="write each deal's lead a hand and games won (JSON) to this file, "
                        "for bench/value_paired.py")
    args = parser.parse_args()
    hard: Settings = tuple(
        (name, value) for name, value in (
            ("budget", args.hard_budget), ("discard_budget", args.hard_discard_budget),
            ("particles", args.hard_particles), ("sharpness", args.hard_sharpness),
            ("blend", args.hard_blend), ("learned", args.hard_learned))
        if value is not None
    )

    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    unknown = [x for x in levels if x not in LEVELS]
    if unknown:
        parser.error(f"unknown level(s) {', '.join(unknown)}: choose from {', '.join(LEVELS)}")
    deals = (args.games + 1) // 2
    print(f"variant {args.variant}, {deals} deals per pairing from seed {args.seed}, "
          f"{args.jobs} worker process(es)"
          + "".join(f", hard's {name} {value}" for name, value in hard))
    with multiprocessing.Pool(args.jobs) as pool:
        for i, upper in enumerate(levels):
            for lower in levels[:i]:
                tasks: list[tuple[str, str, int, str, Settings]] = []
                for d in range(deals):
                    seed = args.seed + d
                    tasks.append((upper, lower, seed, args.variant, hard))
                    tasks.append((lower, upper, seed, args.variant, hard))
                start = time.perf_counter()
                results = pool.map(play_game, tasks, chunksize=1)
                report(upper, lower, results, time.perf_counter() - start)
                if args.save:
                    save(args.save, upper, lower, results)


if __name__ == "__main__":
    main()
