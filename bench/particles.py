"""How well the particle filter (``umtali/ai/particles.py``) guesses the opponent's hand,
against the worlds ``hard`` deals today.

Games of ``hard`` (as it is) against ``normal``, as in ``bench/inference.py`` (the first game
of a session, ``hard`` in seat 0 for odd seeds and seat 1 for even ones): the same positions,
hard's discards where the opponent's last discard was read. Beside ``hard``, one filter for
each ``--configs`` entry (``count:sharpness``) is shown the same views and moves, as if it were
the seat's memory. At each position ``--worlds`` worlds are dealt ``hard``'s way and from each
filter; reported: the share of the opponent's hidden cards (not known from the pile) the dealt
hands hold (perfect inference 100%), and the filter's time a turn.

Each filter's guesses are measured two ways: ``particles`` deals the opponent one of the
guesses (``ParticleMemory.guessed``), ``blend B`` deals ``hard``'s own worlds, keeping one of
16 in proportion to how often the guesses hold its cards, to the power B
(``ParticleMemory.blended``).

Run with ``.venv/bin/python bench/particles.py [--games N] [--configs 128:30:1,128:2:1]
[--variant russian] [--seed S] [--jobs J]``; figures only.

Measured (2026-12-02, ``--jobs 1``, load 6-8): tuning on 30 games from ``--seed 5001`` (490
discards; ``hard`` 24.2%): the guesses alone 18.8-23.6% (sharpness 0.5 to 100, a guess
lacking a laid or shed card weighing 1, 0.3 or one over the stock's size), best at sharpness
30 with repairs free; copies made by resampling moving a card 21.7% against 23.5% without;
blended 26.1% (B 0.5), 27.0% (1), 27.1% (2), 27.7% (4). Then ``--games 100 --seed 1
--configs 128:30:1,128:2:1`` (1,639 discards): ``hard`` 26.6% (standard error 0.2%); the
guesses alone 26.4% (sharpness 30) and 22.1% (2); blended 29.4% and 30.8% (sharpness 30, B 1
and 4), 27.8% and 29.2% (sharpness 2). The filter's time a view: max 0.3 s (128 guesses,
not compiled, load 7). So the whole history lifts what the worlds hold by some 4 points
(30.8% against 26.6%), more than the latest discard alone (28.1%), far from 35%.
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from inference import last_discard

from umtali import RuleSet, Session
from umtali.ai.determinize import OpponentModel, rules_of, sample_world
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.particles import ParticleMemory
from umtali.ai.search import Dealer
from umtali.events import GameEnded
from umtali.moves import MoveKind
from umtali.players import Player
from umtali.view import PlayerView

#: Strengths of the guesses' weighing of ``hard``'s worlds (``ParticleMemory.blended``).
BLENDS = (1.0, 4.0)

Config = tuple[int, float, float | None]


def hard_worlds(view: PlayerView, model: OpponentModel) -> Dealer:
    """``hard``'s own worlds."""
    rules = rules_of(view)
    return lambda rng: sample_world(view, rng, model, rules)


def play_game(task: tuple[int, str, int, list[Config]]) -> dict[str, list[float]]:
    seed, variant, worlds, configs = task
    session = Session(RuleSet.named(variant), seed)
    hard_seat = seed % 2 == 0
    hard = HardPlayer(f"{seed}:{int(hard_seat)}")
    players: list[Player] = [hard, NormalPlayer(f"{seed}:1")]
    if hard_seat:
        players.reverse()
    filters = {f"particles {n}:{s:g}:{r}": ParticleMemory(f"{seed}:{int(hard_seat)}", n, s, r)
               for n, s, r in configs}
    found: dict[str, list[float]] = {}
    while True:
        seat = session.to_act
        view = session.view(seat)
        player = players[seat]
        if seat == hard_seat:
            measure = view.legal_moves[0].kind is MoveKind.DISCARD
            model = copy.deepcopy(hard.memory).observe(view)
            hidden = session.hand.hands[1 - seat] & ~model.known
            measure = measure and bool(hidden) and last_discard(view, model) is not None
            rules = rules_of(view)
            deals: dict[str, Dealer] = {"hard": hard_worlds(view, model)}
            for name, f in filters.items():
                start = time.perf_counter()
                f.observe(view)
                found.setdefault(f"{name} ms", []).append((time.perf_counter() - start) * 1000)
                deal = f.guessed(view, rules)
                if deal is not None:
                    deals[name] = deal
                for strength in BLENDS:
                    blend = f.blended(view, model, rules, strength)
                    if blend is not None:
                        deals[f"{name} blend {strength:g}"] = blend
            if measure and len(deals) == 1 + len(filters) * (1 + len(BLENDS)):
                for name, d in deals.items():
                    rng = random.Random(f"{seed}:{len(view.plays)}:{view.stock_size}")
                    held = 0.0
                    for _ in range(worlds):
                        dealt = d(rng).hands[1 - seat] & ~model.known
                        held += (dealt & hidden).bit_count() / hidden.bit_count()
                    found.setdefault(name, []).append(held / worlds)
        move = player.choose(view)
        if seat == hard_seat:
            for f in filters.values():
                f.note(view, move)
        if any(isinstance(e, GameEnded) for e in session.apply(move)):
            return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--configs", default="128:2,128:100",
                        help="filters as count:sharpness[:repair], comma-separated (repair: a "
                        "number, or pool for one over the stock's size)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["english", "russian"], default="english")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    configs: list[Config] = []
    for c in args.configs.split(","):
        n, s, *r = c.split(":")
        configs.append((int(n), float(s), float(r[0]) if r and r[0] != "pool" else None))
    start = time.perf_counter()
    tasks = [(args.seed + g, args.variant, args.worlds, configs) for g in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.map(play_game, tasks, chunksize=1)
    merged: dict[str, list[float]] = {}
    for found in games:
        for name, xs in found.items():
            merged.setdefault(name, []).extend(xs)
    n = len(merged.get("hard", []))
    print(f"{args.games} games of hard against normal ({args.variant}), {n} discards of hard's "
          f"with the opponent's last discard read, {args.worlds} worlds each, "
          f"{time.perf_counter() - start:.0f} s")
    for name, xs in merged.items():
        if name.endswith(" ms"):
            continue
        m = sum(xs) / len(xs)
        se = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))
        times = sorted(merged.get(f"{name} ms", [0.0]))
        print(f"  {name:<20} holds {m:6.1%} of the opponent's hidden cards "
              f"(standard error {se:.1%}); filter ms a view p50 {times[len(times) // 2]:.1f} "
              f"max {times[-1]:.1f}")


if __name__ == "__main__":
    main()
