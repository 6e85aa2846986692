"""Engine speed: random self-play hands per second, legal-move listing and JSON round-trip.

Legal-move listing is timed twice: over positions of random play (the median case), and over
adversarial positions where the take-two search works hardest (the worst case). Those are the
positions pinned in ``tests/test_take_two_search.py`` plus the hardest of a fresh random hunt:
hands of ten cards and two discards drawn with ranks 9 to K six times as likely as the rest
(jacks, tens and court cards give the search the most ways to lay a hand out), in each
variant, listed in the draw phase and, where ``take 2`` is legal, again after taking two.

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

from tests.test_take_two_search import CASES, RULES, hardest_position
from umtali import RuleSet, Session
from umtali.cards import CARDS
from umtali.codec import session_from_json, session_to_json
from umtali.events import HandEnded
from umtali.hand import HandState
from umtali.moves import Move
from umtali.players import RandomPlayer


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


def session_hands(n: int, rules: RuleSet, seed: int, *, views: bool) -> float:
    """Hands per second of random play through ``Session``. With ``views`` it plays as
    ``python -m umtali simulate --players random`` does: each seat a ``RandomPlayer`` choosing
    from its own ``PlayerView``, as every computer player does; without, the same random
    choice straight from the session's legal moves."""
    hands = 0
    s = seed
    start = time.perf_counter()
    while hands < n:
        session = Session(rules, s)
        players = (RandomPlayer(f"{s}:0"), RandomPlayer(f"{s}:1"))
        s += 1
        while not session.over and hands < n:
            seat = session.to_act
            if views:
                move = players[seat].choose(session.view(seat))
            else:
                move = players[seat].rng.choice(session.legal_moves())
            for e in session.apply(move):
                if isinstance(e, HandEnded):
                    hands += 1
    return n / (time.perf_counter() - start)


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


def legal_listing(positions: list[HandState], repeat: int = 3) -> list[float]:
    def listing(h: HandState) -> None:
        h._legal = None  # measure the listing, not its cache
        h.legal_moves()

    return time_each(listing, positions, repeat)


def hunt_hard_positions(count: int, seed: int, keep: int) -> list[tuple[float, str]]:
    """Random positions biased to jacks, tens and court cards; the ``keep`` slowest to list,
    as (µs, description), each listing timed once."""
    rng = random.Random(seed)
    weights = [6 if c % 13 + 1 >= 9 else 1 for c in range(52)]
    found: list[tuple[float, str]] = []
    for _ in range(count):
        variant = rng.choice(list(RULES))
        cards: list[int] = []
        while len(cards) < 12:
            c = rng.choices(range(52), weights)[0]
            if c not in cards:
                cards.append(c)
        hand = " ".join(CARDS[c].code for c in cards[:10])
        pile = " ".join(CARDS[c].code for c in cards[10:])
        h = hardest_position(variant, hand, pile, "draw")
        t = time.perf_counter()
        legal = h.legal_moves()
        found.append(((time.perf_counter() - t) * 1e6, f"{variant}, {hand}, pile {pile}"))
        if Move.take_two() in legal:
            h.apply(Move.take_two())
            t = time.perf_counter()
            h.legal_moves()
            found.append(((time.perf_counter() - t) * 1e6,
                          f"{variant}, {hand}, pile {pile}, after take 2"))
    return sorted(found, reverse=True)[:keep]


def worst_case_listing(hunt: int, seed: int) -> None:
    """The pinned hard positions and the hunt's hardest, each listed the best of 5 times."""
    hunted = hunt_hard_positions(hunt, seed, keep=20)
    named = [(f"{v}, {hand}, pile {pile}" + ("" if ph == "draw" else ", after take 2"),
              hardest_position(v, hand, pile, ph)) for v, hand, pile, ph, _ in CASES]
    for _, desc in hunted:
        variant, hand, rest = desc.split(", ", 2)
        pile = rest.removeprefix("pile ").removesuffix(", after take 2")
        phase = "after take 2" if desc.endswith("after take 2") else "draw"
        named.append((desc, hardest_position(variant, hand, pile, phase)))
    us = legal_listing([h for _, h in named], repeat=5)
    worst = sorted(zip(us, (d for d, _ in named), strict=True), reverse=True)
    print(f"legal-move listing, worst case over {len(us)} adversarial positions "
          f"({len(CASES)} pinned + the 20 hardest of a {hunt:,}-deal hunt, seed {seed}): "
          f"max {worst[0][0]:,.0f} µs, median {statistics.median(us):,.0f} µs")
    for t, desc in worst[:3]:
        print(f"    {t:8,.0f} µs  {desc}")


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
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of session play timed each way; the median is reported")
    parser.add_argument("--hunt", type=int, default=20000,
                        help="random deals tried in the hunt for hard positions")
    args = parser.parse_args()

    for rules in (RuleSet.english(), RuleSet.russian()):
        random_hands(200, rules, args.seed)  # warm up
        secs, moves = random_hands(args.hands, rules, args.seed)
        print(f"random self-play ({rules.name}): {args.hands / secs:,.0f} hands/s, "
              f"{moves / args.hands:.1f} moves/hand, {secs / moves * 1e6:.1f} µs/move")

    # The machine is shared: the median of a few runs, interleaved so both see the same load.
    rates: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.runs):
        for views in (False, True):
            rates[views].append(session_hands(args.hands // 2, RuleSet.english(), args.seed,
                                              views=views))
    for views in (False, True):
        how = "through each seat's view (simulate --players random)" if views else "no views"
        print(f"random session play (english), {how}: "
              f"{statistics.median(rates[views]):,.0f} hands/s "
              f"(median of {args.runs}: {', '.join(f'{r:,.0f}' for r in rates[views])})")

    positions = sample_positions(5000, args.seed)
    us = legal_listing(positions)
    print(f"legal-move listing over {len(us)} positions: median {statistics.median(us):.1f} µs, "
          f"p90 {pct(us, 0.9):.1f} µs, p99 {pct(us, 0.99):.1f} µs, max {max(us):.0f} µs")
    worst_case_listing(args.hunt, args.seed)
    rt = json_round_trips(500, args.seed)
    print(f"JSON round-trip of a whole session over {len(rt)} states: median "
          f"{statistics.median(rt):.0f} µs, p90 {pct(rt, 0.9):.0f} µs")


if __name__ == "__main__":
    main()
