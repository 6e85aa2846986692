"""Picture speed: the table and hand pictures over the positions of self-play sessions.

Each move is shown as the bot shows it: the mover's hand (the answer to their click), and when
a turn ends the table and both hands (the DM panels). Pictures go through the bot's cache,
so the hit rate is the bot's; the times are of the pictures actually drawn (the misses), which
is how long a turn's rendering holds the event loop. Figures only; no pass/fail.

Run with ``make bench`` or ``.venv/bin/python bench/render.py [--sessions N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.umtali.pictures import CACHE, hand_png, table_png, warm
from umtali import RuleSet, Session
from umtali.players import GreedyPlayer
from umtali.view import SPECTATOR

NAMES = ("Алёша Попович", "Guinevere of the Round Table")
#: ``--scripts``: names drawn by the typefaces after PT Sans (Arabic, Hebrew, Greek, Thai).
SCRIPTS = ("عبد الرحمن بن محمد", "Παπαδόπουλος דוד สมชาย")


class Timed:
    def __init__(self) -> None:
        self.drawn: list[float] = []
        self.largest = 0
        self.sizes: list[int] = []

    def __call__(self, make: Callable[..., bytes], *args: Any, **kwargs: Any) -> None:
        misses = CACHE.misses
        start = time.perf_counter()
        png = make(*args, **kwargs)
        took = time.perf_counter() - start
        if CACHE.misses > misses:
            self.drawn.append(took)
            self.sizes.append(len(png))
        self.largest = max(self.largest, len(png))

    def line(self, what: str) -> str:
        ms = sorted(t * 1000 for t in self.drawn)
        p50 = statistics.median(ms)
        p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
        return (f"{what:<6} drawn {len(ms):>6}  p50 {p50:5.2f} ms  p99 {p99:5.2f} ms  "
                f"max {ms[-1]:5.2f} ms  largest file {self.largest / 1024:6.1f} KB  "
                f"mean {statistics.fmean(self.sizes) / 1024:6.1f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=12)
    parser.add_argument("--four-colour", action="store_true")
    parser.add_argument("--scripts", action="store_true",
                        help="names in Arabic, Hebrew, Greek, Thai (drawn by Noto Sans...)")
    args = parser.parse_args()
    start = time.perf_counter()
    warm()
    print(f"sprites made in {(time.perf_counter() - start) * 1000:.0f} ms")
    CACHE.clear()
    table, hand = Timed(), Timed()
    four = args.four_colour
    names = SCRIPTS if args.scripts else NAMES
    positions = 0
    for i in range(args.sessions):
        rules = RuleSet.russian() if i % 3 == 2 else RuleSet.english(optional_melding=i % 2 == 1)
        session = Session(rules, 1000 + i)
        player = GreedyPlayer()
        while not session.over:
            seat = session.to_act
            hand_before = session.hand_no
            session.apply(player.choose(session.view(seat)), seat)
            positions += 1
            hand(hand_png, session.view(seat), four_colour=four)
            if session.over or session.to_act != seat or session.hand_no != hand_before:
                table(table_png, session.view(SPECTATOR), names, four_colour=four)
                for s in (0, 1):
                    hand(hand_png, session.view(s), four_colour=four)
    print(f"{args.sessions} sessions, {positions} positions")
    print(hand.line("hand"))
    print(table.line("table"))
    print(f"cache  hit rate {CACHE.hit_rate:.1%} ({CACHE.hits} hits, {CACHE.misses} drawn; "
          f"bounded at {CACHE.size}, holding {len(CACHE)})")


if __name__ == "__main__":
    main()
