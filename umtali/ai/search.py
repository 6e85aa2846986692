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

#: What starting one playout costs, counted in moves played.
PLAYOUT_OVERHEAD = 3

#: Deals one world from the search's random numbers.
Dealer = Callable[[random.Random], HandState]


def playout(state: HandState, seat: int) -> tuple[int, int]:
    """Play the hand out with the ``normal`` policy; return ``seat``'s score minus the other's,
    and the number of moves played.

    Moves come from ``listed`` (the legal moves, kept by the hand) only, so the engine's
    unchecked ``_play`` is safe and spares validating each move again.
    """
    moves = 0
    while not state.over:
        legal = state.listed()
        move = legal[0] if len(legal) == 1 else policy.choose(of_state(state), legal)
        state._play(move)
        moves += 1
    a, b = state.scores()
    return (a - b if seat == 0 else b - a), moves


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
    budget: int,
    model: OpponentModel,
    rules: RuleSet,
    z: float = 1.5,
    deal: Dealer | None = None,
) -> int:
    """The index of the move to play among ``candidates`` (the ``normal`` choice first), judged
    by the playouts' average final score difference.

    Scoring playouts by the rough chance of winning the game instead (a normal curve over the
    game's lead) was tried, and did worse against ``normal`` in both points and games.

    The ``budget`` counts moves played in playouts, not playouts: a playout from early in a
    hand is twice as long as one near its end, and a budget of moves keeps the time per
    decision even while staying a fixed count (so the same view gives the same move).
    Successive halving spends it over rounds: after each round the worse half of the
    candidates drops out, while candidate 0 always stays as the yardstick.

    ``deal``: where the worlds come from, if not sampled from the view (``bench/ceiling.py``
    deals them from the real hand, to measure what knowing the hidden cards would be worth).
    """
    n = len(candidates)
    outcomes: list[list[float]] = [[] for _ in range(n)]
    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n)))
    for r in range(rounds):
        spent = 0
        while spent < budget // rounds:
            world = sample_world(view, rng, model, rules) if deal is None else deal(rng)
            for i in alive:
                state = world.copy()
                state._play(candidates[i])
                lead, moves = playout(state, view.seat)
                outcomes[i].append(lead)
                # Dealing a world and copying it cost about as much as a few moves.
                spent += moves + PLAYOUT_OVERHEAD
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
