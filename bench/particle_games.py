"""``hard`` with its worlds dealt through the particle filter (``umtali/ai/particles.py``)
against ``hard`` as it is, each playing ``normal`` on the same deals (paired).

As ``bench/ai.py`` plays (the first game of a session, every deal from both seats, the same
seeds, so ``--games 1000`` from seed 1 is ``bench/ai.py --games 1000 --levels normal,hard``'s
games): ``sampled`` is ``HardPlayer`` as it is, ``particles`` the same player with
``particles`` guesses (``--particles``, ``--sharpness``, ``--blend``). Reported for each as
``bench/ai.py`` reports, then the lead a hand of ``particles`` over ``sampled`` on the same
deals with its paired standard error. Run with ``.venv/bin/python bench/particle_games.py
[--games N] [--arms sampled,particles] [--particles 128] [--sharpness 30] [--blend 4]
[--seed S] [--jobs J] [--leads FILE]`` (``--leads``: two processes may each play one arm on
the same deals and compare when the second ends). Figures only.

Measured (2026-12-02, 128 guesses, sharpness 30, blend 4, ``--jobs 1``): 400 games from seed
1 (filter not compiled, load 5): ``particles`` 57.5% (52.6% to 62.3%), +1.55 points a hand
(0.31), ``sampled`` 54.5%, +0.93 (0.30); +0.62 over ``sampled`` (paired 0.34); p95 114 ms,
max 0.7 s a decision. 1,000 games from seed 1 (compiled; ``--games 500`` from seeds 1 and
251 at once, load 3-4; ``sampled`` on its own): ``particles`` 54.2% (51.1% to 57.3%), +1.08
(0.18), ``sampled`` 53.8% (50.7% to 56.9%), +0.66 (0.18); +0.41 over ``sampled`` (paired
0.20); ``particles`` p50 11 ms, p95 182-185 ms, max 1.26-1.5 s a decision, ``sampled`` p95
33 ms, max 0.97 s.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import GameResult, deal_leads, play, report

from umtali import RuleSet, Session
from umtali.ai import NormalPlayer
from umtali.ai.hard import HardPlayer
from umtali.players import Player

Task = tuple[str, int, int, str, int, float, float]


def play_game(task: Task) -> GameResult:
    arm, hard_seat, seed, variant, count, sharpness, blend = task
    levels = ("hard", "normal") if hard_seat == 0 else ("normal", "hard")
    session = Session(RuleSet.named(variant), seed)
    seat_seed = f"{seed}:{hard_seat}"
    hard = (HardPlayer(seat_seed) if arm == "sampled"
            else HardPlayer(seat_seed, particles=count, sharpness=sharpness, blend=blend))
    players: list[Player] = [hard, NormalPlayer(f"{seed}:{1 - hard_seat}")]
    if hard_seat:
        players.reverse()
    return play(session, players, levels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--arms", default="particles,sampled")
    parser.add_argument("--particles", type=int, default=128)
    parser.add_argument("--sharpness", type=float, default=30.0)
    parser.add_argument("--blend", type=float, default=4.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["english", "russian"], default="english")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--leads", type=Path, default=None,
                        help="a JSON file of each arm's leads by deal: arms already in it "
                        "are read for the paired comparison, arms played are added")
    args = parser.parse_args()
    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    deals = (args.games + 1) // 2
    print(f"variant {args.variant}, {deals} deals x 2 seats from seed {args.seed}; particles "
          f"{args.particles}, sharpness {args.sharpness:g}, blend {args.blend:g}")
    leads: dict[str, list[float]] = {}
    if args.leads is not None and args.leads.exists():
        leads = json.loads(args.leads.read_text())
    with multiprocessing.Pool(args.jobs) as pool:
        for arm in arms:
            tasks: list[Task] = [
                (arm, s, args.seed + d, args.variant, args.particles, args.sharpness, args.blend)
                for d in range(deals) for s in (0, 1)
            ]
            start = time.perf_counter()
            results = pool.map(play_game, tasks, chunksize=1)
            print(f"arm: {arm}")
            report("hard", "normal", results, time.perf_counter() - start)
            leads[arm] = deal_leads(results, "hard", "normal")
            if args.leads is not None:
                # Read again: an arm played meanwhile by another process stays.
                saved = json.loads(args.leads.read_text()) if args.leads.exists() else {}
                leads = {**saved, arm: leads[arm]}
                args.leads.write_text(json.dumps(leads))
    if "sampled" in leads and "particles" in leads:
        diff = [a - b for a, b in zip(leads["particles"], leads["sampled"], strict=True)]
        m = sum(diff) / len(diff)
        se = math.sqrt(sum((x - m) ** 2 for x in diff) / max(1, len(diff) - 1) / len(diff))
        print(f"particles over sampled: {m:+.2f} points/hand (paired standard error {se:.2f})")


if __name__ == "__main__":
    main()
