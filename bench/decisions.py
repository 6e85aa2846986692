"""How much one decision can gain over ``normal``: discards and draws valued in the real world.

Games of ``hard`` against ``normal`` are played as ``bench/ai.py`` plays them. At each decision
of either seat between discards (three of ``normal``'s best) or between drawing and taking the
top discard, every candidate is played out ``--worlds`` times in the real hand: both real hands,
the stock reshuffled each time, the same shuffles for every candidate, ``normal`` playing both
seats after the candidate. A candidate's value is its average final lead in the hand; a
chooser's gain is the value of its choice less the value of ``normal``'s, in points.

Choosers compared:
- ``lookahead``: ``hard``'s own rule (``umtali.ai.lookahead``), from the seat's view;
- ``linear``: a least-squares fit of the candidates' values on features of the seat's view
  (``FEATURES``), fitted on half of the decisions and scored on the other half, both ways. It
  stands for a judgement learned from play, the step beyond the hand-made one;
- ``search``, with ``--search BUDGET[,BUDGET...]``: ``hard``'s meld search
  (``umtali.ai.search``) over the same three discards in sampled worlds from the seat's view,
  the lookahead's choice first as the yardstick, with each budget of playout moves (its time
  a decision is reported too), its worlds dealt as ``--from`` says: ``sampled`` (as ``hard``
  deals them), ``inferred:S`` (weighed by the opponent's last discard, ``bench/inference.py``)
  or ``opponent`` (the opponent's real hand, only the stock shuffled: no seat can);
- ``real hands``: the candidate best over half the worlds, scored over the other half. It sees
  the opponent's real hand and the stock's contents, which no seat can: a floor of what the
  decisions are worth to a player who knew them. Only a floor: half the worlds pick with their
  own luck. Between drawing and taking, where the stock card drawn swings each world's value,
  that luck outweighs the choice, and this chooser does worse than ``normal``.

Positions and values come from the real state, never the judgement: the choosers read only the
seat's view. Run with ``.venv/bin/python bench/decisions.py [--games N] [--worlds K] [--jobs J]
[--search B1,B2 [--z Z]]``; figures only.
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ceiling import opponent_worlds
from inference import inferred_worlds

from umtali import RuleSet, Session
from umtali.ai import lookahead, policy
from umtali.ai.determinize import OpponentModel, rules_of
from umtali.ai.hard import HardPlayer, decision_key
from umtali.ai.heuristics import feed_chance, holding_odds, keep_values, outs, table_outs
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import Outlook, of_view
from umtali.ai.search import Dealer, playout, search
from umtali.ai.value import dead_cards
from umtali.cards import POINTS, iter_cards
from umtali.events import GameEnded
from umtali.hand import HandState
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView

#: ``normal``'s best discards valued at each discard.
WIDTH = 3
FEATURES = (
    "next turn (lookahead)", "feeding the opponent", "points shed", "keep value shed",
    "keep values left", "points left", "dead points left", "dead cards left",
    "live outs left", "live outs of the card shed", "dead points, opponent near out",
)


class Decision(NamedTuple):
    kind: str  # "discard" or "draw"
    #: Each candidate's value in each world; candidate 0 is ``normal``'s choice.
    values: list[list[float]]
    #: Candidate index ``hard``'s lookahead chooses.
    lookahead: int
    #: Each candidate's features (discards only).
    features: list[list[float]]
    #: The candidate index the search chooses with each ``--search`` budget, and its time in
    #: ms (discards only).
    searched: tuple[int, ...] = ()
    search_ms: tuple[float, ...] = ()


def discard_features(o: Outlook, card: int, draws: Sequence[int]) -> list[float]:
    """``FEATURES`` of shedding ``card``, from the seat's outlook."""
    kept = o.hand & ~(1 << card)
    ahead = sum(lookahead.next_turn_value(o, kept | 1 << c) for c in draws) / len(draws)
    given = feed_chance(card, o, holding_odds(o)) * (POINTS[card] + 1.0)
    beyond = table_outs(o.melds)
    live = o.live
    dead_points, dead, union = dead_cards(kept, beyond, live)
    left = keep_values(o._replace(hand=kept), kept)
    near = 1.0 if o.opponent_size <= 3 else 0.0
    return [
        ahead, given, POINTS[card], keep_values(o, o.hand)[card], sum(left.values()),
        sum(POINTS[c] for c in iter_cards(kept)), dead_points, dead, union.bit_count(),
        (outs(card, o.hand, beyond) & live).bit_count(), dead_points * near,
    ]


def valued(real: HandState, seat: int, moves: Sequence[Move], worlds: int,
           rng: random.Random) -> list[list[float]]:
    values: list[list[float]] = [[] for _ in moves]
    for _ in range(worlds):
        world = real.copy()
        rng.shuffle(world.stock)
        for i, move in enumerate(moves):
            state = world.copy()
            state._play(move)
            values[i].append(playout(state, seat)[0])
    return values


def dealer(mode: str, view: PlayerView, model: OpponentModel, real: HandState) -> Dealer | None:
    """Where a search's worlds come from: ``sampled`` (as ``hard``), ``inferred:S`` (weighed
    by the opponent's last discard, sharpness S), ``opponent`` (the real opponent hand, the
    stock shuffled: what no seat can do)."""
    if mode.startswith("inferred:"):
        return inferred_worlds(view, model, rules_of(view), float(mode.split(":")[1]))
    if mode == "opponent":
        return opponent_worlds(real)
    return None


def searched(view: PlayerView, ranked: Sequence[Move], chosen: Move, model: OpponentModel,
             budget: int, z: float, deal: Dealer | None = None) -> tuple[int, float]:
    """The index in ``ranked`` of the discard the search picks, the lookahead's ``chosen``
    first (kept unless another is clearly better), and the time it took in ms."""
    start = time.perf_counter()
    candidates = [chosen, *(m for m in ranked if m != chosen)]
    rng = random.Random(f"discards:{budget}:{decision_key(view)}")
    pick = search(view, candidates, rng, budget, model, rules_of(view), z, deal)
    return ranked.index(candidates[pick]), (time.perf_counter() - start) * 1000


def play_game(task: tuple[int, int, str, tuple[tuple[int, str], ...], float]) -> list[Decision]:
    seed, worlds, variant, budgets, z = task
    session = Session(RuleSet.named(variant), seed)
    players: list[HardPlayer | NormalPlayer] = [HardPlayer(f"{seed}:0"), NormalPlayer(f"{seed}:1")]
    if seed % 2:
        players.reverse()
    rng = random.Random(seed)
    found: list[Decision] = []
    while True:
        seat = session.to_act
        view = session.view(seat)
        player = players[seat]
        legal = view.legal_moves
        # A copy: observing the same view twice would change what the player remembers.
        model = copy.deepcopy(player.memory).observe(view)
        o = of_view(view, model.known, session.rules.optional_melding)
        kinds = {m.kind: m for m in legal}
        draws = list(iter_cards(o.live))
        if (legal[0].kind is MoveKind.DISCARD and len(legal) > 1 and not o.last_turn
                and o.hand.bit_count() > 2 and draws):
            ranked = policy.rank_discards(o, legal)[:WIDTH]
            chosen = lookahead.choose_discard(o, legal)
            picks = [searched(view, ranked, chosen, model, b, z,
                              dealer(mode, view, model, session.hand))
                     for b, mode in budgets]
            found.append(Decision(
                "discard", valued(session.hand, seat, ranked, worlds, rng),
                ranked.index(chosen), [discard_features(o, m.card, draws) for m in ranked],
                tuple(i for i, _ in picks), tuple(ms for _, ms in picks),
            ))
        elif (MoveKind.TAKE in kinds and MoveKind.DRAW in kinds
              and MoveKind.TAKE_TWO not in kinds and o.live and o.top >= 0):
            usual = policy.choose_draw(o, legal)
            other = kinds[MoveKind.DRAW] if usual.kind is MoveKind.TAKE else kinds[MoveKind.TAKE]
            ranked = [usual, other]
            found.append(Decision(
                "draw", valued(session.hand, seat, ranked, worlds, rng),
                ranked.index(lookahead.choose_draw(o, legal)), [],
            ))
        move = player.choose(view)
        for event in session.apply(move):
            if isinstance(event, GameEnded):
                return found


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def summary(gains: Sequence[float]) -> str:
    m = mean(gains)
    se = math.sqrt(sum((g - m) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
    return f"{m:+.3f} (standard error {se:.3f})"


def real_hands_gain(d: Decision) -> float:
    """The best candidate over one half of the worlds, scored on the other, both ways."""
    half = len(d.values[0]) // 2
    gain = 0.0
    for pick, score in ((slice(0, half), slice(half, None)), (slice(half, None), slice(0, half))):
        best = max(range(len(d.values)), key=lambda i: (mean(d.values[i][pick]), -i))
        gain += mean(d.values[best][score]) - mean(d.values[0][score])
    return gain / 2


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting, for the small normal equations."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(decisions: Sequence[Decision]) -> list[float]:
    """Weights of the features that best predict each candidate's value against the others of
    its decision (ridge-regularised least squares)."""
    d = len(FEATURES)
    a = [[1.0 if i == j else 0.0 for j in range(d)] for i in range(d)]
    b = [0.0] * d
    for dec in decisions:
        fs = dec.features
        qs = [mean(v) for v in dec.values]
        mf = [mean([f[j] for f in fs]) for j in range(d)]
        mq = mean(qs)
        for f, q in zip(fs, qs, strict=True):
            x = [f[j] - mf[j] for j in range(d)]
            for i in range(d):
                b[i] += x[i] * (q - mq)
                for j in range(d):
                    a[i][j] += x[i] * x[j]
    return solve(a, b)


def linear_gains(decisions: Sequence[Decision]) -> tuple[list[float], list[float]]:
    """Each discard's gain by the fitted judgement, fitted on the other half; and the weights
    fitted on all of them."""
    halves = (decisions[::2], decisions[1::2])
    gains: list[float] = []
    for train, test in ((halves[0], halves[1]), (halves[1], halves[0])):
        w = fit(train)
        for dec in test:
            scores = [sum(x * y for x, y in zip(w, f, strict=True)) for f in dec.features]
            best = max(range(len(scores)), key=lambda i: (scores[i], -i))
            gains.append(mean(dec.values[best]) - mean(dec.values[0]))
    return gains, fit(decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="english")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--search", default="",
                        help="budgets of the discard search, comma-separated (default: none)")
    parser.add_argument("--from", dest="modes", default="sampled",
                        help="where the searches' worlds come from, comma-separated: sampled, "
                             "inferred:SHARPNESS, opponent (default sampled)")
    parser.add_argument("--z", type=float, default=1.0,
                        help="how clearly the search must beat the lookahead, in standard errors")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    budgets = tuple((int(b), m) for b in args.search.split(",") if b.strip() for m in modes)
    start = time.perf_counter()
    tasks = [(args.seed + g, args.worlds, args.variant, budgets, args.z)
             for g in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        decisions = [d for found in pool.map(play_game, tasks, chunksize=2) for d in found]
    hands = args.games * 4  # a game is four hands, more only when tied
    print(f"{args.games} games of hard against normal ({args.variant}), {args.worlds} worlds "
          f"a decision, {time.perf_counter() - start:.0f} s")
    for kind in ("discard", "draw"):
        ds = [d for d in decisions if d.kind == kind]
        if len(ds) < 4:
            continue
        print(f"{kind}s: {len(ds)} decisions, {len(ds) / hands / 2:.1f} per seat a hand; "
              f"gain over normal's choice, points of the hand:")
        chosen = [mean(d.values[d.lookahead]) - mean(d.values[0]) for d in ds]
        print(f"  lookahead (hard)        {summary(chosen)}")
        if kind == "discard":
            gains, weights = linear_gains(ds)
            print(f"  linear, fitted on play  {summary(gains)}")
            print("    weights: " + ", ".join(
                f"{name} {w:+.2f}" for name, w in zip(FEATURES, weights, strict=True)))
            for k, (budget, mode) in enumerate(budgets):
                gains = [mean(d.values[d.searched[k]]) - mean(d.values[0]) for d in ds]
                over = [mean(d.values[d.searched[k]]) - mean(d.values[d.lookahead]) for d in ds]
                ms = sorted(d.search_ms[k] for d in ds)
                print(f"  search, budget {budget:<6} {mode}  {summary(gains)}; over the lookahead "
                      f"{summary(over)}, changes {sum(d.searched[k] != d.lookahead for d in ds)}; "
                      f"ms p50 {ms[len(ms) // 2]:.0f} p95 {ms[int(len(ms) * 0.95)]:.0f} "
                      f"max {ms[-1]:.0f}")
        print(f"  real hands (split half) {summary([real_hands_gain(d) for d in ds])}")


if __name__ == "__main__":
    main()
