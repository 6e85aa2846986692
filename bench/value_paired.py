"""Two runs of ``bench/ai.py --save`` on the same deals compared deal by deal: games won and
points a hand of each, and the paired difference of points a hand with its standard error.

Run with ``.venv/bin/python bench/value_paired.py BASE.json OTHER.json``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import pct, wilson


def mean_se(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))


def main() -> None:
    runs = [json.loads(Path(p).read_text()) for p in sys.argv[1:3]]
    for path, run in zip(sys.argv[1:3], runs, strict=True):
        n, wins = 2 * len(run["wins"]), sum(run["wins"])
        lo, hi = wilson(wins, n)
        m, se = mean_se(run["leads"])
        t = run["times"]
        print(f"{path}: {wins}/{n} = {wins / n:.1%} (95% CI {lo:.1%} to {hi:.1%}), "
              f"{m:+.2f} points/hand ({se:.2f}); ms p50 {pct(t, 0.5):.1f} "
              f"p95 {pct(t, 0.95):.1f} max {max(t):.0f}")
    diff = [b - a for a, b in zip(runs[0]["leads"], runs[1]["leads"], strict=True)]
    m, se = mean_se(diff)
    games = [b - a for a, b in zip(runs[0]["wins"], runs[1]["wins"], strict=True)]
    g, gse = mean_se([x / 2 for x in games])
    print(f"paired difference: {m:+.2f} points/hand (standard error {se:.2f}), "
          f"{g:+.1%} of games ({gse:.1%}) over {len(diff)} deals")


if __name__ == "__main__":
    main()
