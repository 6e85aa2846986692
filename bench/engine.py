"""Engine speed: random self-play hands per second, legal-move listing and JSON round-trip.

Session play is timed both ways: straight from the session's legal moves, and through each
seat's ``PlayerView`` as ``python -m umtali simulate --players random``, the bot and every
computer player ask for it (the median of a few interleaved runs of each).

Legal-move listing is timed twice: over positions of random play (the median case), and over
adversarial positions where the take-two search works hardest (the worst case, reported as
the maximum). Those are the positions pinned in ``tests/test_take_two_search.py`` plus the
hardest of a fresh hunt: random hands of 7 to 10 cards (no player to draw holds more) and two
discards, ranks 9 to K six times as likely as the rest; constructed hands of three or four
jacks with nines, tens, queens and kings; and every take-two position of whole sessions where
both players take two and meld whenever they may (tables of melds, hands grown by taking). Each
is listed in the draw phase and, where ``take 2`` is legal, again after taking two.

The engine timed is the one that runs: its hot modules compiled by ``make``
(``compile_engine.py``), unless ``UMTALI_ENGINE=interpreted`` asks for the Python sources; the
first line says which.

Run with ``make bench`` or ``.venv/bin/python bench/engine.py [--hands N]``. Figures only; no
pass/fail (machines are noisy).
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_take_two_search import CASES, RULES, hardest_position
from umtali import ENGINE, RuleSet, Session
from umtali.cards import CARDS
from umtali.codec import session_from_json, session_to_json
from umtali.events import HandEnded
from umtali.hand import HandState, Phase
from umtali.moves import Move, MoveKind
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
        # simulate's own loop: the session's methods bound once a session, a hand's end looked
        # for only between hands.
        view, apply, legal_moves = session.view, session.apply, session.legal_moves
        choose = (players[0].choose, players[1].choose)
        rngs = (players[0].rng, players[1].rng)
        while session.winner < 0:
            hand = session.hand
            while hand.reason is None:
                seat = hand.turn
                if views:
                    events = apply(choose[seat](view(seat)))
                else:
                    events = apply(rngs[seat].choice(legal_moves()))
            for e in events:
                if isinstance(e, HandEnded):
                    hands += 1
            if hands >= n:
                break
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


def _dealt(variant: str, cards: list[int], size: int) -> tuple[str, HandState]:
    """The player to act holds the first ``size`` cards; the next two are the discard pile."""
    hand = " ".join(CARDS[c].code for c in cards[:size])
    pile = " ".join(CARDS[c].code for c in cards[size:size + 2])
    return f"{variant}, {hand}, pile {pile}", hardest_position(variant, hand, pile, "draw")


def _pick(rng: random.Random, weights: list[int], count: int) -> list[int]:
    cards: list[int] = []
    while len(cards) < count:
        c = rng.choices(range(52), weights)[0]
        if c not in cards:
            cards.append(c)
    return cards


def dealt_positions(count: int, seed: int) -> Iterator[tuple[str, HandState]]:
    """Random hands of 7 to 10 cards (no hand holds more when its player is to draw) and two
    discards, ranks 9 to K six times as likely as the rest (jacks, tens and court cards give
    the search the most ways to lay a hand out)."""
    rng = random.Random(seed)
    weights = [6 if c % 13 + 1 >= 9 else 1 for c in range(52)]
    for _ in range(count):
        size = rng.choice((7, 8, 9, 10, 10, 10))
        yield _dealt(rng.choice(list(RULES)), _pick(rng, weights, size + 2), size)


def court_positions(count: int, seed: int) -> Iterator[tuple[str, HandState]]:
    """Constructed hands: the four jacks, or three, with the rest drawn from the nines, tens,
    queens and kings (and now and then one low card), the two discards from the same cards."""
    rng = random.Random(seed)
    court = [c for c in range(52) if c % 13 + 1 in (9, 10, 12, 13)]
    jacks = [c for c in range(52) if c % 13 + 1 == 11]
    low = [c for c in range(52) if c % 13 + 1 <= 8]
    for _ in range(count):
        size = rng.choice((8, 9, 10, 10))
        cards = rng.sample(jacks, rng.choice((3, 4)))
        extra = rng.sample(court, size + 2 - len(cards))
        if rng.random() < 0.3:
            extra[rng.randrange(len(extra) - 2)] = rng.choice(low)
        mine = cards + extra[:size - len(cards)]
        rng.shuffle(mine)
        yield _dealt(rng.choice(list(RULES)), mine + extra[size - len(cards):], size)


def played_positions(sessions: int, seed: int) -> Iterator[tuple[str, HandState]]:
    """Positions of whole sessions where each player takes two and melds whenever it may: a
    table of melds, and hands grown by taking; every position where the search may run."""
    rng = random.Random(seed)
    keen = (MoveKind.TAKE_TWO, MoveKind.MELD, MoveKind.EXTEND)
    for i in range(sessions):
        variant = list(RULES)[i % len(RULES)]
        session = Session(RULES[variant], f"hunt-{seed}-{i}")
        while not session.over:
            h = session.hand
            if len(h.discard_pile) >= 2 or h.must_meld:
                yield f"{variant}, session hunt-{seed}-{i}, move {len(session.moves)}", h.copy()
            legal = session.legal_moves()
            melds = [m for m in legal if m.kind in keen]
            session.apply(rng.choice(melds or legal))


def hunt_hard_positions(
    sources: Iterable[tuple[str, HandState]], keep: int
) -> list[tuple[float, str, HandState]]:
    """The ``keep`` slowest positions to list, each listing timed once; where ``take 2`` is
    legal in the draw phase, the position after taking two is tried too."""
    found: list[tuple[float, str, HandState]] = []

    def timed(desc: str, h: HandState) -> None:
        fresh = h.copy()
        t = time.perf_counter()
        h.legal_moves()
        us = (time.perf_counter() - t) * 1e6
        if len(found) < keep:
            heapq.heappush(found, (us, desc, fresh))
        elif us > found[0][0]:
            heapq.heapreplace(found, (us, desc, fresh))

    for desc, h in sources:
        timed(desc, h)
        if h.phase is Phase.DRAW and Move.take_two() in h.legal_moves():
            h.apply(Move.take_two())
            timed(f"{desc}, after take 2", h)
    return sorted(found, key=lambda f: f[0], reverse=True)


def worst_case_listing(hunt: int, seed: int) -> None:
    """The pinned hard positions and the hunt's hardest (random, constructed and played), each
    listed the best of 5 times."""
    sources = itertools.chain(
        dealt_positions(hunt, seed),
        court_positions(hunt // 2, seed),
        played_positions(max(1, hunt // 200), seed),
    )
    hunted = hunt_hard_positions(sources, keep=30)
    named = [(f"{v}, {hand}, pile {pile}" + ("" if ph == "draw" else ", after take 2"),
              hardest_position(v, hand, pile, ph)) for v, hand, pile, ph, _ in CASES]
    named += [(desc, h) for _, desc, h in hunted]
    us = legal_listing([h for _, h in named], repeat=5)
    worst = sorted(zip(us, (d for d, _ in named), strict=True), reverse=True)
    print(f"legal-move listing, worst case over {len(us)} adversarial positions "
          f"({len(CASES)} pinned + the 30 hardest of a hunt over {hunt:,} random deals, "
          f"{hunt // 2:,} constructed court-card deals and {max(1, hunt // 200):,} sessions of "
          f"keen play, seed {seed}): max {worst[0][0]:,.0f} µs, "
          f"median {statistics.median(us):,.0f} µs")
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
                        help="random deals tried in the hunt for hard positions (and half as "
                             "many constructed ones, and a session of play per 200)")
    args = parser.parse_args()

    # Compiled by make (compile_engine.py), or not; UMTALI_ENGINE=interpreted times the sources.
    print(f"engine: {ENGINE}")
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
