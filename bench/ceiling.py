"""How far ``hard`` could get by knowing the hidden cards: its searches' worlds dealt from the
truth instead of sampled from the view.

``hard`` (with its discard search on: ``discard_budget`` 4,000) plays ``normal`` as in
``bench/ai.py`` (the first game of a session, every deal from both seats, the same seeds),
its searches dealing their worlds in one of three ways (``--worlds``):

- ``sampled``: ``HardPlayer`` as it is, worlds sampled to fit its view (the baseline);
- ``opponent``: every world holds the opponent's real hand (and a face-down top discard's
  real card), only the stock's order shuffled: what perfect inference of the opponent's hand
  would give the search;
- ``clairvoyant``: every world is the real hand, stock order too. Playouts are then
  deterministic, so a few decide exactly (``EXACT_BUDGET``).

Only where ``hard`` searches does the truth reach it: its meld choices and the discard its
look ahead chooses against ``normal``'s other best two (the look ahead itself, the draw and the
last hand's play for the game judge from the view, as in ``hard``). So this is the ceiling of
this search over those candidates, not of every player. The oracle reads the real
``HandState`` (``Session.hand``), set by the game loop before each choice, and copies it.

Reported for each mode as ``bench/ai.py`` reports: games won with a 95% Wilson interval,
points a hand, the lead a hand with its standard error over deals, decision times; then each
mode's lead over ``sampled`` on the same deals (paired). Run with
``.venv/bin/python bench/ceiling.py [--games N] [--worlds clairvoyant,opponent,sampled]
[--variant russian] [--seed S] [--jobs J]``. Figures only.

Measured (2026-12-02, compiled, ``--jobs 1``, load 1.5-2.7): English, 1,000 games from seed 1
and 1,000 from seed 501 (``sampled`` and ``opponent``), clairvoyant from seed 1 only:
``sampled`` 53.8% and 54.3% (54.1% of 2,000, 51.9% to 56.2%), +0.66 and +1.19 points a hand
(standard errors 0.18); ``opponent`` 59.1% and 62.8% (61.0% of 2,000, 58.8% to 63.1%), +2.61
and +2.86 (0.20, 0.19), +1.95 and +1.67 over ``sampled`` on the same deals (0.23, 0.21);
``clairvoyant`` 88.6% (86.5% to 90.4%), +11.8 (0.20). Russian, 400 games from seed 1:
``sampled`` 54.8% (49.9% to 59.6%), +0.89 (0.28); ``opponent`` 61.8% (56.9% to 66.4%), +2.60
(0.34); ``clairvoyant`` 88.8%, +11.7. ``hard``'s p95 a decision 62-75 ms in every mode but
``clairvoyant`` (4 ms). So knowing the opponent's hand exactly would just reach 60% of games,
and a view-only player infers it only in part: the target is out of reach of this search by
better inference alone. Knowing the stock's order as well is worth far more, which no seat can.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import GameResult, deal_leads, play, report

from umtali import RuleSet, Session
from umtali.ai import NormalPlayer
from umtali.ai.hard import HardPlayer
from umtali.ai.search import Dealer
from umtali.hand import HandState
from umtali.players import Player
from umtali.view import PlayerView

MODES = ("sampled", "opponent", "clairvoyant")
DISCARD_BUDGET = 4000
#: In the ``clairvoyant`` mode every world is the same and playouts are deterministic, so
#: each candidate's value is exact after one playout; a small budget still plays a few, as the
#: search needs two worlds to call a difference clear (with none in their values, it is).
EXACT_BUDGET = 600


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


class OraclePlayer(HardPlayer):
    """``hard`` whose searches deal their worlds from ``truth``, the real hand state."""

    def __init__(self, seed: int | str, mode: str) -> None:
        exact = mode == "clairvoyant"
        super().__init__(seed, budget=EXACT_BUDGET if exact else 2000,
                         discard_budget=EXACT_BUDGET if exact else DISCARD_BUDGET)
        self.mode = mode
        #: The real hand state at this decision: set by the game loop, only ever copied.
        self.truth: HandState | None = None

    def worlds(self, view: PlayerView) -> Dealer | None:
        if self.truth is None:
            return None
        if self.mode == "clairvoyant":
            real = self.truth.copy()
            return lambda rng: real.copy()
        return opponent_worlds(self.truth)


def opponent_worlds(truth: HandState) -> Dealer:
    """Worlds holding the opponent's real hand (and a face-down top discard's real card),
    only the stock's order shuffled."""
    real = truth.copy()

    def deal(rng: random.Random) -> HandState:
        world = real.copy()
        rng.shuffle(world.stock)
        # A reshuffle of the pile is unknown too.
        world.reshuffle_key = f"world:{rng.getrandbits(64)}"
        return world

    return deal


def play_game(task: tuple[str, int, int, str]) -> GameResult:
    """The first game of the session of ``seed``, ``hard`` (dealing worlds by ``mode``) in seat
    ``hard_seat``."""
    mode, hard_seat, seed, variant = task
    levels = ("hard", "normal") if hard_seat == 0 else ("normal", "hard")
    session = Session(RuleSet.named(variant), seed)
    hard: HardPlayer = (
        HardPlayer(f"{seed}:{hard_seat}", discard_budget=DISCARD_BUDGET) if mode == "sampled"
        else OraclePlayer(f"{seed}:{hard_seat}", mode)
    )
    players: list[Player] = [hard, NormalPlayer(f"{seed}:{1 - hard_seat}")]
    if hard_seat:
        players.reverse()

    def hand_truth(player: Player) -> None:
        if isinstance(player, OraclePlayer):
            player.truth = session.hand

    return play(session, players, levels, hand_truth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100,
                        help="games a mode, rounded up to even (default 100: minutes)")
    parser.add_argument("--worlds", default=",".join(reversed(MODES)),
                        help=f"comma-separated modes among {', '.join(MODES)}")
    parser.add_argument("--seed", type=int, default=1, help="first session seed (default 1)")
    parser.add_argument("--variant", choices=["english", "russian"], default="english")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args()
    modes = [m.strip() for m in args.worlds.split(",") if m.strip()]
    if any(m not in MODES for m in modes):
        parser.error(f"--worlds: choose from {', '.join(MODES)}")
    deals = (args.games + 1) // 2
    print(f"variant {args.variant}, {deals} deals x 2 seats from seed {args.seed}, hard's "
          f"discard_budget {DISCARD_BUDGET}, {args.jobs} worker process(es)")
    leads: dict[str, list[float]] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for mode in modes:
            tasks = [(mode, s, args.seed + d, args.variant) for d in range(deals) for s in (0, 1)]
            start = time.perf_counter()
            results = pool.map(play_game, tasks, chunksize=1)
            print(f"worlds: {mode}")
            report("hard", "normal", results, time.perf_counter() - start)
            leads[mode] = deal_leads(results, "hard", "normal")
    if "sampled" in leads:
        for mode in (m for m in modes if m != "sampled"):
            diff = [a - b for a, b in zip(leads[mode], leads["sampled"], strict=True)]
            m = _mean(diff)
            se = math.sqrt(sum((x - m) ** 2 for x in diff) / max(1, len(diff) - 1) / len(diff))
            print(f"{mode} over sampled: {m:+.2f} points/hand (paired standard error {se:.2f})")


if __name__ == "__main__":
    main()
