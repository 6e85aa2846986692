"""Determinized Monte Carlo search: try candidate moves in sampled worlds, play each world out
to the end of the hand with the ``normal`` policy for both players, and compare the moves by
the final score difference.

Two things keep the noise down. Every candidate is tried in the same worlds, and playouts are
deterministic, so moves are compared on the same luck (common random numbers). And the search
only overrules the ``normal`` choice (candidate 0) when its best move beats it by a clear
margin over those shared worlds: one hand's outcome swings by a dozen points, a good discard
gains one or two, and picking the best of several noisy averages would otherwise often pick
noise.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from umtali.ai import policy
from umtali.ai.determinize import OpponentModel, sample_world
from umtali.ai.outlook import of_state
from umtali.hand import HandState
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.view import PlayerView


def playout(state: HandState, seat: int) -> int:
    """Play the hand out with the ``normal`` policy; return ``seat``'s score minus the other's.

    Moves come from ``legal_moves`` only, so the engine's unchecked ``_play`` is safe and spares
    validating each move again.
    """
    while not state.over:
        legal = state.legal_moves()
        move = legal[0] if len(legal) == 1 else policy.choose(of_state(state), legal)
        state._play(move)
    a, b = state.scores()
    return a - b if seat == 0 else b - a


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def clearly_better(gains: Sequence[float], z: float) -> bool:
    """Whether paired gains are positive by more than ``z`` standard errors."""
    n = len(gains)
    if n < 2:
        return False
    m = _mean(gains)
    var = sum((g - m) ** 2 for g in gains) / (n - 1)
    return m > z * math.sqrt(var / n)


def search(
    view: PlayerView,
    candidates: Sequence[Move],
    rng: random.Random,
    playouts: int,
    model: OpponentModel,
    rules: RuleSet,
    value: Callable[[float], float],
    z: float = 1.0,
) -> int:
    """The index of the move to play among ``candidates`` (the ``normal`` choice first), judged
    by the average ``value`` of the playouts' final score differences.

    Successive halving spends the ``playouts`` over rounds: after each round the worse half of
    the candidates drops out, while candidate 0 always stays as the yardstick.
    """
    n = len(candidates)
    outcomes: list[list[float]] = [[] for _ in range(n)]
    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n)))
    for r in range(rounds):
        worlds = max(1, playouts // rounds // len(alive))
        for _ in range(worlds):
            world = sample_world(view, rng, model, rules)
            for i in alive:
                state = world.copy()
                state._play(candidates[i])
                outcomes[i].append(value(playout(state, view.seat)))
        if r < rounds - 1:
            ranked = sorted(alive, key=lambda i: (-_mean(outcomes[i]), i))
            keep = ranked[: max(2, (len(alive) + 1) // 2)]
            alive = sorted(set(keep) | {0})
    best = max(alive, key=lambda i: (_mean(outcomes[i]), -i))
    if best == 0:
        return 0
    base = outcomes[0]
    gains = [b - a for a, b in zip(base, outcomes[best], strict=True)]
    return best if clearly_better(gains, z) else 0
