"""Fits the learned discard value's weights (``umtali/ai/value_weights.py``) on the self-play
data of ``bench/value_data.py``, and reports what the fitted judgement gains.

Each decision's candidates are centred on their mean (features and values), so the fit learns
only what makes one discard better than another in the same position: ridge least squares on
standardised features. Reported, on decisions held out of the fit (``--folds`` folds of whole
files' decisions in blocks): the gain a discard, in points of the hand, of the fitted choice
over ``normal``'s choice and over the look ahead's, with standard errors; and the same for the
look ahead itself.

Needs numpy (in the dev extra, which every ``make`` target installs):
``.venv/bin/python bench/value_fit.py FILE... [--ridge L] [--write]``
(``--write`` regenerates ``umtali/ai/value_weights.py`` from the fit on every decision).
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Row = tuple[Any, ...]


def load(paths: list[str], first: int = 0) -> list[Row]:
    """The decisions of ``paths``; those gathered with the first 35 features only get the
    others (``value.more_features``) from what they were computed from, and those that did
    not keep it are left out."""
    from umtali.ai.value import FEATURES, more_features

    rows: list[Row] = []
    for p in paths:
        with open(p, "rb") as f:
            for row in pickle.load(f):
                feats = row[0]
                if first:
                    feats = [f[:first] for f in feats]
                elif len(feats[0]) < len(FEATURES):
                    if len(row) < 4:
                        continue
                    o, signals, cards = row[3]
                    feats = [f + more_features(o, c, signals)
                             for f, c in zip(feats, cards, strict=True)]
                rows.append((feats, *row[1:]))
    return rows


def arrays(rows: list[Row]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (decisions x candidates x features), values (decisions x candidates) and the
    look ahead's choices, of the decisions with three candidates (nearly all)."""
    rows = [r for r in rows if len(r[0]) == 3]
    x = np.asarray([r[0] for r in rows], dtype=float)
    q = np.asarray([[sum(v) / len(v) for v in r[1]] for r in rows])
    return x, q, np.asarray([r[2] for r in rows])


def standardised(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    flat = x.reshape(-1, x.shape[-1])
    scale = flat.std(axis=0)
    scale[scale == 0] = 1.0
    return flat.mean(axis=0), scale


def expanded(z: np.ndarray, quadratic: bool) -> np.ndarray:
    """The terms the value is linear in: each standardised feature, and with ``quadratic``
    each product of two (a feature with itself too), in ``value.score``'s order."""
    if not quadratic:
        return z
    i, j = np.triu_indices(z.shape[-1])
    return np.concatenate([z, z[..., i] * z[..., j]], axis=-1)


def fit(x: np.ndarray, q: np.ndarray, ridge: float, quadratic: bool,
        mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Ridge least squares of each candidate's value against its decision's mean, on the
    terms of the standardised features likewise centred (each term scaled to unit spread
    for the penalty)."""
    t = expanded((x - mean) / scale, quadratic)
    t = t - t.mean(axis=1, keepdims=True)
    y = (q - q.mean(axis=1, keepdims=True)).ravel()
    flat = t.reshape(-1, t.shape[-1])
    spread = flat.std(axis=0)
    spread[spread == 0] = 1.0
    flat = flat / spread
    a = flat.T @ flat + ridge * len(flat) * np.eye(flat.shape[1])
    solved: np.ndarray = np.linalg.solve(a, flat.T @ y)
    return np.asarray(solved / spread, dtype=np.float64)


def cross(x: np.ndarray, q: np.ndarray, la: np.ndarray, ridge: float, quadratic: bool,
          folds: int) -> tuple[list[float], list[float], list[float]]:
    """Per held-out decision: the fitted choice over normal's, over the look ahead's; the look
    ahead's over normal's."""
    n = len(x)
    over_normal: list[float] = []
    over_look: list[float] = []
    look: list[float] = []
    for k in range(folds):
        test = np.arange(n * k // folds, n * (k + 1) // folds)
        train = np.setdiff1d(np.arange(n), test)
        mean, scale = standardised(x[train])
        w = fit(x[train], q[train], ridge, quadratic, mean, scale)
        s = expanded((x[test] - mean) / scale, quadratic) @ w
        best = s.argmax(axis=1)  # the first of equals: normal's order
        at = np.arange(len(test))
        qt = q[test]
        over_normal += list(qt[at, best] - qt[:, 0])
        over_look += list(qt[at, best] - qt[at, la[test]])
        look += list(qt[at, la[test]] - qt[:, 0])
    return over_normal, over_look, look


def summary(xs: list[float]) -> str:
    m = sum(xs) / len(xs)
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    return f"{m:+.4f} ({se:.4f})"


def write(mean: np.ndarray, scale: np.ndarray, w: np.ndarray, names: tuple[str, ...],
          command: str, n: int) -> None:
    d = len(names)
    # Features left out of the fit (``--first``) weigh nothing.
    used = len(mean)
    full = np.zeros(d + d * (d + 1) // 2)
    full[:used] = w[:used]
    if len(w) > used:
        i, j = np.triu_indices(used)
        at = {(a, b): k for k, (a, b) in enumerate(zip(*np.triu_indices(d), strict=True))}
        for k, (a, b) in enumerate(zip(i, j, strict=True)):
            full[d + at[(a, b)]] = w[used + k]
    mean = np.concatenate([mean, np.zeros(d - used)])
    scale = np.concatenate([scale, np.ones(d - used)])
    w = full
    lines = [
        '"""The weights of the learned discard value (``value.score``), in points of the hand',
        "a discard is worth against the others of its decision, linear and quadratic in the",
        "features ``value.FEATURES`` standardised by ``MEANS`` and ``SCALES``. Generated by",
        f"``bench/value_fit.py`` from {n} decisions of self-play (``bench/value_data.py``; the",
        "commands that made the files are in ``docs/AI.md``):",
        *textwrap.wrap(f"``{command}``", 96, break_on_hyphens=False),
        '"""',
        "",
        "# fmt: off",
        "MEANS: tuple[float, ...] = (",
        *(f"    {x:.6g},  # {name}" for x, name in zip(mean, names, strict=True)),
        ")",
        "SCALES: tuple[float, ...] = (",
        *(f"    {x:.6g}," for x in scale),
        ")",
        "LINEAR: tuple[float, ...] = (",
        *(f"    {x:.6g}," for x in w[:d]),
        ")",
        "#: Of each pair of features i <= j, in order.",
        "QUADRATIC: tuple[float, ...] = (",
    ]
    quad = [f"{x:.5g}" for x in w[d:]]
    for k in range(0, len(quad), 8):
        lines.append("    " + ", ".join(quad[k:k + 8]) + ",")
    lines += [")", "# fmt: on", ""]
    (ROOT / "umtali" / "ai" / "value_weights.py").write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--ridge", default="0.01",
                        help="ridge penalties to compare, comma-separated; the first is written")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--linear", action="store_true", help="write the linear fit")
    parser.add_argument("--first", type=int, default=0,
                        help="fit on the first N features only (the others weigh nothing)")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    from umtali.ai.value import FEATURES

    x, q, la = arrays(load(args.files, args.first))
    print(f"{len(x)} decisions; gain a discard, points of the hand (standard error)")
    for quadratic in (False, True):
        for ridge in (float(r) for r in args.ridge.split(",")):
            over_normal, over_look, look = cross(x, q, la, ridge, quadratic, args.folds)
            print(f"  {'quadratic' if quadratic else 'linear':9} ridge {ridge:g}: over normal "
                  f"{summary(over_normal)}, over the look ahead {summary(over_look)}; "
                  f"look ahead over normal {summary(look)}", flush=True)
    if args.write:
        ridge = float(args.ridge.split(",")[0])
        mean, scale = standardised(x)
        w = fit(x, q, ridge, not args.linear, mean, scale)
        command = ".venv/bin/python bench/value_fit.py " + " ".join(
            Path(f).name for f in args.files) + f" --ridge {ridge:g}" + (
            " --linear" if args.linear else "") + (
            f" --first {args.first}" if args.first else "") + " --write"
        write(mean, scale, w, FEATURES, command, len(x))


if __name__ == "__main__":
    main()
