"""How well the worlds ``hard`` searches in guess the opponent's hand, and how much more the
opponent's last discard could tell.

Games of ``hard`` against ``normal`` (the first game of a session, ``hard`` in seat 0 for odd
seeds and seat 1 for even ones). At each discard of ``hard`` where the opponent has played a
turn under compulsory melding and some of their hand is hidden, ``--worlds`` worlds are dealt
from the seat's view and memory in each of these ways:

- ``uniform``: the hidden cards dealt at random, only the counts kept;
- ``proven``: no meld in the opponent's hand, no card that extended the table when they
  discarded (what the view proves, ``determinize``), with their hand made to look kept;
- ``hard``: as ``hard`` deals them, its discard hints too (``OpponentModel.discards``);
- ``last discard S``: ``hard``'s worlds weighed by the opponent's latest discard, judged as
  ``normal`` judges (``keep_values`` from their side of the table as it was): a dealt hand from
  which ``normal`` would shed a card ``gap`` points less worth keeping than the card they shed
  is kept with chance ``exp(-S * gap)`` (rejection sampling, ``TRIES`` a world). Against
  ``normal`` a large S is exact.

Reported for each: the share of the opponent's hidden cards (those not known from the pile)
that the dealt hands hold on average (perfect inference: 100%), and the time to deal a world.
``bench/decisions.py --from`` plays the search in such worlds. Run with
``.venv/bin/python bench/inference.py [--games N] [--worlds K] [--sharpness S1,S2]
[--variant russian] [--seed S] [--jobs J]``; figures only.

Measured (2026-12-02, compiled, ``--games 100 --jobs 1``): English, 1,652 discards: uniform
15.1%, proven 25.4%, ``hard`` 26.4%, last discard 1/2/4/100: 26.9%, 27.2%, 27.4%, 28.1%
(standard errors 0.2-0.3%), 0.02-0.08 ms a world. Russian, 1,561 discards: uniform 14.7%,
proven 25.7%, ``hard`` 26.8%, last discard 2/100: 27.3%, 28.4%. What the search makes of
those worlds: ``umtali/ai/hard.py``'s notes (nothing measurable).
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from umtali import RuleSet, Session
from umtali.ai.determinize import (
    OpponentModel,
    melds_after,
    rules_of,
    sample_world,
    visible_pile_mask,
)
from umtali.ai.hard import HardPlayer
from umtali.ai.heuristics import keep_values
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import Outlook
from umtali.ai.search import Dealer
from umtali.cards import FULL_DECK
from umtali.events import GameEnded
from umtali.hand import HandState, Phase
from umtali.melds import Meld
from umtali.moves import MoveKind
from umtali.players import Player
from umtali.view import PlayerView

#: How many worlds are dealt at most for one accepted world.
TRIES = 8


class LastDiscard(NamedTuple):
    """The opponent's side of the table when they shed ``card``, but for their hand."""

    card: int
    melds: tuple[Meld, ...]
    accepts: int
    #: Cards the opponent saw then besides their hand: the table and the pile.
    seen: int
    our_size: int
    stock_size: int


def last_discard(view: PlayerView, model: OpponentModel) -> LastDiscard | None:
    """The table the opponent's latest discard was chosen from, if the seat read that turn."""
    if not model.meld_free or model.table_plays < 0 or not model.discards:
        return None
    card = model.discards[-1]
    if card not in model.phantoms:
        return None
    melds = tuple(melds_after(view, model.table_plays))
    accepts = table = 0
    for m in melds:
        accepts |= m.accepts
        table |= m.cards
    drew = view.phase != Phase.DRAW.value
    taken = 0 if view.taken is None else 1 << int(view.taken)
    pile = (visible_pile_mask(view) | taken) & ~(1 << card)
    laid = sum(len(p.cards) for p in view.plays[model.table_plays:])
    return LastDiscard(
        card, melds, accepts, table | pile, len(view.hand) + laid - drew,
        view.stock_size + (drew and view.taken is None),
    )


def likelihood(hand: int, last: LastDiscard, sharpness: float, exempt: int) -> float:
    """How likely a player judging as ``normal`` would have shed ``last.card`` from ``hand``
    and that card (1: the very card ``normal`` would shed)."""
    held = hand | 1 << last.card
    o = Outlook(
        held, last.melds, last.accepts, FULL_DECK & ~held & ~last.seen, 0, last.our_size,
        last.stock_size, -1, False,
    )
    values = keep_values(o, held)
    lowest = min(v for c, v in values.items() if not exempt >> c & 1)
    return math.exp(-sharpness * max(0.0, values[last.card] - lowest))


def inferred_worlds(
    view: PlayerView, model: OpponentModel, rules: RuleSet, sharpness: float
) -> Dealer | None:
    """A dealer of ``hard``'s worlds weighed by the opponent's last discard, or None if the
    seat did not read that discard."""
    last = last_discard(view, model)
    if last is None:
        return None

    def deal(rng: random.Random) -> HandState:
        world = sample_world(view, rng, model, rules)
        for _ in range(TRIES):
            if rng.random() < likelihood(world.hands[1 - view.seat], last, sharpness,
                                         model.known):
                break
            world = sample_world(view, rng, model, rules)
        return world

    return deal


def dealers(view: PlayerView, model: OpponentModel, sharpness: list[float]
            ) -> dict[str, Callable[[random.Random], HandState]]:
    rules = rules_of(view)
    out: dict[str, Callable[[random.Random], HandState]] = {
        "uniform": lambda rng: sample_world(
            view, rng, model._replace(meld_free=False, discards=()), rules),
        "proven": lambda rng: sample_world(view, rng, model._replace(discards=()), rules),
        "hard": lambda rng: sample_world(view, rng, model, rules),
    }
    for s in sharpness:
        deal = inferred_worlds(view, model, rules, s)
        assert deal is not None
        out[f"last discard {s:g}"] = deal
    return out


def play_game(task: tuple[int, str, int, list[float]]) -> dict[str, list[float]]:
    """Each way's overlap (share of the hidden hand dealt) and ms a world, at each position."""
    seed, variant, worlds, sharpness = task
    session = Session(RuleSet.named(variant), seed)
    hard_seat = seed % 2 == 0
    players: list[Player] = [HardPlayer(f"{seed}:0"), NormalPlayer(f"{seed}:1")]
    if hard_seat:
        players.reverse()
    found: dict[str, list[float]] = {}
    while True:
        seat = session.to_act
        view = session.view(seat)
        player = players[seat]
        if (seat == hard_seat and isinstance(player, HardPlayer)
                and view.legal_moves[0].kind is MoveKind.DISCARD):
            # A copy: observing the same view twice would change what the player remembers.
            model = copy.deepcopy(player.memory).observe(view)
            hidden = session.hand.hands[1 - seat] & ~model.known
            if hidden and last_discard(view, model) is not None:
                for name, deal in dealers(view, model, sharpness).items():
                    rng = random.Random(f"{seed}:{len(view.plays)}:{view.stock_size}")
                    start = time.perf_counter()
                    held = 0.0
                    for _ in range(worlds):
                        dealt = deal(rng).hands[1 - seat] & ~model.known
                        held += (dealt & hidden).bit_count() / hidden.bit_count()
                    ms = (time.perf_counter() - start) * 1000 / worlds
                    found.setdefault(name, []).append(held / worlds)
                    found.setdefault(f"{name} ms", []).append(ms)
        move = player.choose(view)
        if any(isinstance(e, GameEnded) for e in session.apply(move)):
            return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--sharpness", default="2,100",
                        help="sharpness of the last discard's weighing, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["english", "russian"], default="english")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    sharpness = [float(s) for s in args.sharpness.split(",") if s.strip()]
    start = time.perf_counter()
    tasks = [(args.seed + g, args.variant, args.worlds, sharpness) for g in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.map(play_game, tasks, chunksize=1)
    merged: dict[str, list[float]] = {}
    for found in games:
        for name, xs in found.items():
            merged.setdefault(name, []).extend(xs)
    n = len(merged.get("hard", []))
    print(f"{args.games} games of hard against normal ({args.variant}), {n} discards of hard's "
          f"with the opponent's last discard read, {args.worlds} worlds each, "
          f"{time.perf_counter() - start:.0f} s")
    for name, xs in merged.items():
        if name.endswith(" ms"):
            continue
        m = sum(xs) / len(xs)
        se = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))
        ms = sum(merged[f"{name} ms"]) / len(xs)
        print(f"  {name:<18} holds {m:6.1%} of the opponent's hidden cards "
              f"(standard error {se:.1%}); {ms:.3f} ms a world")


if __name__ == "__main__":
    main()
