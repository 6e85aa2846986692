"""Self-play data for the learned discard value (``umtali/ai/value.py``).

Games of ``hard`` (its look ahead, no discard search) against ``normal``, seats alternating by
seed. At every discard of either seat with a choice (not the last turn, more than two cards in
hand, a card left to draw), each of ``normal``'s best three discards gets the features of
``value.features`` (from the seat's view and memory only) and a value: its final lead in the
hand over ``--worlds`` playouts in the real hand (both real hands, the stock shuffled, the same
shuffles for every discard, ``normal`` playing both seats after it). ``bench/value_fit.py``
fits the weights on them.

Run with ``.venv/bin/python bench/value_data.py --games N --seed S --worlds K --out FILE``
(a pickle of ``Row`` per decision); with ``--search B``, it also reports the gain a discard
of ``hard``'s choices (discard budget B) with the look ahead and with the learned value.
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import pickle
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from umtali import RuleSet, Session
from umtali.ai import lookahead, value
from umtali.ai.hard import HardPlayer
from umtali.ai.heuristics import holding_odds, keep_values
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import Outlook, of_view
from umtali.ai.search import playout
from umtali.cards import iter_cards
from umtali.events import GameEnded
from umtali.hand import HandState
from umtali.moves import Move, MoveKind

#: A decision: each candidate's features and values in each world, the look ahead's choice,
#: what the features were computed from (to compute others without playing again), and with
#: ``--search``, ``hard``'s choice with the look ahead and with the learned value.
Row = tuple[
    list[list[float]], list[list[float]], int, tuple[Outlook, value.Signals, list[int]],
    tuple[int, ...],
]


def valued(real: HandState, seat: int, moves: list[Move], worlds: int,
           rng: random.Random) -> list[list[float]]:
    values: list[list[float]] = [[] for _ in moves]
    for _ in range(worlds):
        world = real.copy()
        rng.shuffle(world.stock)
        for i, move in enumerate(moves):
            state = world.copy()
            state._play(move)
            values[i].append(float(playout(state, seat)[0]))
    return values


def play_game(task: tuple[int, int, str, int, int]) -> list[Row]:
    seed, worlds, variant, budget, width = task
    session = Session(RuleSet.named(variant), seed)
    players: list[HardPlayer | NormalPlayer] = [
        HardPlayer(f"{seed}:0", discard_budget=0), NormalPlayer(f"{seed}:1")]
    if seed % 2:
        players.reverse()
    rng = random.Random(f"value:{seed}")
    # ``hard`` deciding as it plays (its discard search on), with the look ahead or the
    # learned value: their choices are scored on the same values (``--search``).
    deciders = [HardPlayer(f"{seed}:d", discard_budget=budget, for_the_game=False, learned=x)
                for x in (False, True)] if budget else []
    rows: list[Row] = []
    while True:
        seat = session.to_act
        view = session.view(seat)
        player = players[seat]
        legal = view.legal_moves
        if legal[0].kind is MoveKind.DISCARD and len(legal) > 1:
            # A copy: observing the same view twice would change what the player remembers.
            model = copy.deepcopy(player.memory).observe(view)
            o = of_view(view, model.known, session.rules.optional_melding)
            draws = list(iter_cards(o.live))
            ranked = value.candidates(o, legal, width)
            if len(ranked) > 1 and not o.last_turn and o.hand.bit_count() > 2 and draws:
                signals = value.signals_of(view.discard_pile, model.discards)
                odds, values = holding_odds(o), keep_values(o, o.hand)
                feats = [value.features(o, m.card, draws, odds, signals, values) for m in ranked]
                chosen = lookahead.choose_discard(o, legal)
                picks = tuple(ranked.index(d.decide(view, model)) for d in deciders)
                rows.append((feats, valued(session.hand, seat, ranked, worlds, rng),
                             ranked.index(chosen) if chosen in ranked else 0,
                             (o, signals, [m.card for m in ranked]), picks))
        move = player.choose(view)
        for event in session.apply(move):
            if isinstance(event, GameEnded):
                return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=100_001)
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--variant", default="english")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--search", type=int, default=0,
                        help="also score hard's discards (this discard budget), with the look "
                        "ahead and with the learned value (umtali/ai/value_weights.py as it is)")
    parser.add_argument("--width", type=int, default=value.WIDTH,
                        help="how many of normal's best discards are valued (default 3)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    tasks = [(args.seed + g, args.worlds, args.variant, args.search, args.width)
             for g in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = [r for found in pool.imap(play_game, tasks, chunksize=2) for r in found]
    with open(args.out, "wb") as f:
        pickle.dump(rows, f)
    print(f"{args.games} games ({args.variant}), {len(rows)} discards, {args.worlds} worlds, "
          f"{time.perf_counter() - start:.0f} s -> {args.out}")
    if args.search:
        report(rows)


def report(rows: list[Row]) -> None:
    """Each chooser's gain a discard over ``normal``'s choice, in points of the hand, on the
    values of these decisions (not fitted on them unless the weights were)."""
    def mean(v: list[float]) -> float:
        return sum(v) / len(v)

    def line(name: str, pick: Callable[[Row], int]) -> None:
        gains = [mean(r[1][pick(r)]) - mean(r[1][0]) for r in rows]
        m = mean(gains)
        se = math.sqrt(sum((g - m) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
        print(f"  {name:28} {m:+.4f} (standard error {se:.4f})")

    def learned(r: Row) -> int:
        scores = [value.score(f) for f in r[0]]
        return max(range(len(scores)), key=lambda i: (scores[i], -i))

    print("gain a discard over normal's choice:")
    line("look ahead", lambda r: r[2])
    line("learned value", learned)
    line("hard (look ahead, search)", lambda r: r[4][0])
    line("hard (learned value, search)", lambda r: r[4][1])


if __name__ == "__main__":
    main()
