"""What each kind of decision is worth: ``normal`` against itself with one kind of decision
changed, on paired deals.

Where a stronger computer can gain is where a worse choice loses most. Each variant plays as
``normal`` except for one kind of decision, against plain ``normal``, every deal from both
seats; the lead in points a hand (with its standard error over deals) and the games won say
how much that kind of decision weighs. A variant that plays ``normal``'s own move leads by
exactly 0 (the harness check).

Variants: ``normal`` (the check), ``random-discard`` (any legal discard, at random),
``never-take`` (always draw from the stock unless two can be taken), ``random-meld`` (any of
the melds on offer), ``take-kept:T`` (also take the top discard when, taken, it would be worth
keeping by at least ``T`` points more than the hand's least worth card).

Run with ``.venv/bin/python bench/levers.py [--deals N] [--jobs J] [--variant russian]
[VARIANT...]``. A deal of ``normal`` against itself takes about 15 ms. Figures only.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from umtali import RuleSet, Session
from umtali.ai import policy
from umtali.ai.determinize import rules_of
from umtali.ai.heuristics import keep_values, usable_now
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import Outlook, of_view
from umtali.events import GameEnded, HandEnded
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView

Choice = Callable[[Outlook, Sequence[Move], random.Random], Move]


def normal(o: Outlook, legal: Sequence[Move], rng: random.Random) -> Move:
    return policy.choose(o, legal)


def random_discard(o: Outlook, legal: Sequence[Move], rng: random.Random) -> Move:
    if legal[0].kind is MoveKind.DISCARD and not o.last_turn and o.hand.bit_count() > 1:
        return rng.choice([m for m in legal if m.kind is MoveKind.DISCARD])
    return policy.choose(o, legal)


def never_take(o: Outlook, legal: Sequence[Move], rng: random.Random) -> Move:
    kinds = {m.kind for m in legal}
    if MoveKind.DRAW in kinds and MoveKind.TAKE_TWO not in kinds:
        return next(m for m in legal if m.kind is MoveKind.DRAW)
    return policy.choose(o, legal)


def random_meld(o: Outlook, legal: Sequence[Move], rng: random.Random) -> Move:
    lays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
    return rng.choice(lays) if len(lays) > 1 else policy.choose(o, legal)


def take_kept(threshold: float) -> Choice:
    def choose(o: Outlook, legal: Sequence[Move], rng: random.Random) -> Move:
        take = next((m for m in legal if m.kind is MoveKind.TAKE), None)
        two = any(m.kind is MoveKind.TAKE_TWO for m in legal)
        if take is not None and not two and o.top >= 0 and not usable_now(o.top, o):
            values = keep_values(o._replace(hand=o.hand | 1 << o.top), o.hand | 1 << o.top)
            least = min(v for c, v in values.items() if c != o.top)
            if values[o.top] - least >= threshold:
                return take
        return policy.choose(o, legal)
    return choose


def variant_of(name: str) -> Choice:
    fixed: dict[str, Choice] = {"normal": normal, "random-discard": random_discard,
                                "never-take": never_take, "random-meld": random_meld}
    if name in fixed:
        return fixed[name]
    if name.startswith("take-kept:"):
        return take_kept(float(name.split(":", 1)[1]))
    raise ValueError(f"unknown variant {name!r}")


class VariantPlayer(NormalPlayer):
    """``normal``, choosing through ``choice``: the same memory of the opponent and outlook."""

    def __init__(self, choice: Choice, seed: int) -> None:
        super().__init__(seed)
        self.choice = choice
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        model = self.memory.observe(view)
        outlook = of_view(view, model.known, rules_of(view).optional_melding)
        move = self.choice(outlook, view.legal_moves, self.rng)
        self.memory.note(view, move)
        return move


def play(task: tuple[str, int, int, str]) -> tuple[int, int, bool]:
    """The first game of session ``seed``, the variant in ``seat``: its lead in points over
    the game, the hands played, and whether it won."""
    name, seed, seat, rules = task
    session = Session(RuleSet.named(rules), seed)
    players = [NormalPlayer(seed), NormalPlayer(seed)]
    players[seat] = VariantPlayer(variant_of(name), seed)
    lead = hands = 0
    while True:
        to_act = session.to_act
        for event in session.apply(players[to_act].choose(session.view(to_act))):
            if isinstance(event, HandEnded):
                lead += event.scores[seat] - event.scores[1 - seat]
                hands += 1
            elif isinstance(event, GameEnded):
                return lead, hands, event.winner == seat


DEFAULT = ["normal", "random-discard", "never-take", "random-meld", "take-kept:2"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", default=DEFAULT,
                        help=f"variants to measure (default: {' '.join(DEFAULT)})")
    parser.add_argument("--deals", type=int, default=1000, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1000, help="first session seed")
    parser.add_argument("--variant", choices=["english", "russian"], default="english")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args()
    for name in args.variants:
        variant_of(name)  # an unknown name stops here, before any game
    with multiprocessing.Pool(args.jobs) as pool:
        for name in args.variants:
            start = time.perf_counter()
            tasks = [(name, args.seed + d, seat, args.variant)
                     for d in range(args.deals) for seat in (0, 1)]
            results = pool.map(play, tasks, chunksize=8)
            leads = [(a[0] + b[0]) / (a[1] + b[1])
                     for a, b in zip(results[::2], results[1::2], strict=True)]
            mean = sum(leads) / len(leads)
            se = math.sqrt(sum((x - mean) ** 2 for x in leads) / max(1, len(leads) - 1)
                           / len(leads))
            won = sum(r[2] for r in results) / len(results)
            print(f"{name}: {len(results)} games; lead {mean:+.2f} points/hand "
                  f"(standard error {se:.2f}); games won {won:.1%}; "
                  f"{time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
