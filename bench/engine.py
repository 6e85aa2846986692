"""Engine speed: random self-play hands per second, legal-move listing and JSON round-trip.

Run with ``make bench`` or ``.venv/bin/python bench/engine.py [--hands N]``. Figures only; no
pass/fail (machines are noisy).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from umtali import RuleSet, Session
from umtali.codec import session_from_json, session_to_json
from umtali.hand import HandState


def random_hands(n: int, rules: RuleSet, seed: int) -> tuple[float, int]:
    """Play ``n`` hands of uniformly random legal moves; return seconds and moves made."""
    rng = random.Random(seed)
    deck = list(range(52))
    moves = 0
    start = time.perf_counter()
    for i in range(n):
        rng.shuffle(deck)
        h = HandState.deal(rules, i & 1, deck, f"bench-{i}")
        while not h.over:
            legal = h.legal_moves()
            h.apply(legal[rng.randrange(len(legal))])
            moves += 1
    return time.perf_counter() - start, moves


def sample_positions(count: int, seed: int) -> list[HandState]:
    rng = random.Random(seed)
    out: list[HandState] = []
    s = 0
    while len(out) < count:
        session = Session(RuleSet.english(), s)
        s += 1
        while not session.over and len(out) < count:
            out.append(session.hand.copy())
            session.apply(rng.choice(session.legal_moves()))
    return out


def time_each(call: Callable[[Any], object], items: list[Any], repeat: int = 3) -> list[float]:
    """Microseconds per call, the best of ``repeat`` runs for each item."""
    out = []
    for item in items:
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            call(item)
            best = min(best, time.perf_counter() - t)
        out.append(best * 1e6)
    return out


def legal_listing(positions: list[HandState]) -> list[float]:
    def listing(h: HandState) -> None:
        h._legal = None  # measure the listing, not its cache
        h.legal_moves()

    return time_each(listing, positions)


def json_round_trips(count: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    sessions: list[Session] = []
    session = Session(RuleSet.english(), seed)
    while len(sessions) < count:
        if session.over:
            session = Session(RuleSet.english(), seed + len(sessions))
        session.apply(rng.choice(session.legal_moves()))
        if rng.random() < 0.2:
            sessions.append(session_from_json(session_to_json(session)))

    def round_trip(s: Session) -> None:
        session_from_json(json.loads(json.dumps(session_to_json(s))))

    return time_each(round_trip, sessions, repeat=1)


def pct(values: list[float], p: float) -> float:
    return sorted(values)[min(len(values) - 1, int(p * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    for rules in (RuleSet.english(), RuleSet.russian()):
        random_hands(200, rules, args.seed)  # warm up
        secs, moves = random_hands(args.hands, rules, args.seed)
        print(f"random self-play ({rules.name}): {args.hands / secs:,.0f} hands/s, "
              f"{moves / args.hands:.1f} moves/hand, {secs / moves * 1e6:.1f} µs/move")

    positions = sample_positions(5000, args.seed)
    us = legal_listing(positions)
    print(f"legal-move listing over {len(us)} positions: median {statistics.median(us):.1f} µs, "
          f"p90 {pct(us, 0.9):.1f} µs, p99 {pct(us, 0.99):.1f} µs, max {max(us):.0f} µs")
    rt = json_round_trips(500, args.seed)
    print(f"JSON round-trip of a whole session over {len(rt)} states: median "
          f"{statistics.median(rt):.0f} µs, p90 {pct(rt, 0.9):.0f} µs")


if __name__ == "__main__":
    main()
