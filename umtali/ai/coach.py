"""The coach: the move ``hard`` would make, with one line of why in plain words (``hint``); and,
after a hand, the few moves of one seat that cost most as ``hard`` judges them (``review``).

Pure, like the rest of ``umtali.ai``: it reads only what the seat's ``PlayerView`` shows, and
its reasons (``umtali.ai.reasons``) are ``Text`` worded in the reader's language where they are
shown.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import NamedTuple

from umtali.ai import policy
from umtali.ai.determinize import OpponentModel, rules_of, sample_world
from umtali.ai.hard import HardPlayer, decision_key
from umtali.ai.reasons import reason
from umtali.ai.search import PLAYOUT_OVERHEAD, playout
from umtali.hand import HandState
from umtali.i18n import Text
from umtali.moves import Move, MoveKind
from umtali.session import Session
from umtali.view import PlayerView

#: Playout moves spent judging each move a review questions (as many as ``hard`` spends on
#: one decision).
REVIEW_BUDGET = 4000
#: A move is reported only if it cost at least this many points a hand (a point: a player
#: reads "under a point better" among the costliest moves as no mistake at all)...
REVIEW_FLOOR = 1.0
#: ... and that many standard errors of the playouts more than nothing: a few dozen sampled
#: worlds leave a gain of several points between two equally good moves to luck.
REVIEW_Z = 2.0
#: Budgets a questioned move may be sampled for while its cost is not clear either way.
REVIEW_ROUNDS = 4
#: Budgets a move found costly is played out for anew, on fresh worlds, for the cost named:
#: those that found it were kept for showing a clear gain, and named costs 10% too high
#: (``bench/coach_costs.py``).
REVIEW_NAMED = 2


class Hint(NamedTuple):
    move: Move
    reason: Text


class Mistake(NamedTuple):
    """A move the seat made where ``hard`` would have made another."""

    #: Where the decision stands in the record (0: the first).
    at: int
    view: PlayerView
    played: Move
    better: Move
    #: What the played move cost, in points of the hand, by ``hard``'s playouts (on worlds
    #: other than those that found it costly: as a lot, they favour ``better``).
    cost: float
    #: Why ``better``, in a line (as ``hint`` says it).
    why: Text
    #: The standard error of ``cost`` (the playouts' luck; 0 when every world agrees).
    error: float = 0.0


def hint(view: PlayerView, player: HardPlayer | None = None) -> Hint:
    """The move ``hard`` would make on ``view`` and why. ``player``: the seat's own ``hard``
    player, whose memory of the hand helps; it is left as it was."""
    if not view.legal_moves:
        raise ValueError("the view has no move to make")
    thinker = copy.deepcopy(player) if player is not None else HardPlayer(decision_key(view))
    model = thinker.memory.observe(view)
    move, for_points = thinker.judge(view, model)
    return Hint(move, reason(view, move, model, for_points))


def compare(
    view: PlayerView,
    moves: Sequence[Move],
    model: OpponentModel,
    rng: random.Random,
    budget: int = REVIEW_BUDGET,
) -> list[float]:
    """Each move's average final lead in the hand (this seat's points minus the opponent's),
    over the same sampled worlds, played out by the ``normal`` policy."""
    leads = _leads(view, [(move,) for move in moves], model, rng, budget)
    return [sum(world[i] for world in leads) / len(leads) for i in range(len(moves))]


def _leads(
    view: PlayerView,
    lines: Sequence[Sequence[Move]],
    model: OpponentModel,
    rng: random.Random,
    budget: int,
) -> list[list[int]]:
    """For each sampled world (two at least), the final lead in it after each line of the seat's
    moves (one move, or the lays of a turn), played out."""
    rules = rules_of(view)
    leads: list[list[int]] = []
    spent = 0
    while spent < budget or len(leads) < 2:
        world = sample_world(view, rng, model, rules)
        row = []
        for line in lines:
            state = world.copy()
            for move in line:
                state._play(move)
            lead, played = playout(state, view.seat)
            row.append(lead)
            spent += played + PLAYOUT_OVERHEAD
        leads.append(row)
    return leads


def cost_of(
    view: PlayerView,
    better: Move,
    played: Move,
    model: OpponentModel,
    rng: random.Random,
    budget: int = REVIEW_BUDGET,
) -> float | None:
    """What ``played`` cost against ``better``, in points of the hand on average; None unless
    that is at least ``REVIEW_FLOOR`` and clear of the playouts' luck (``REVIEW_Z`` standard
    errors). An unclear gain is sampled on, ``REVIEW_ROUNDS`` budgets at most: a move as good as
    ``better`` (the other of two twin cards) is not reported for its playouts' luck."""
    measured = _measured(view, (better,), played, model, rng, budget)
    return None if measured is None else measured[0]


def _measured(
    view: PlayerView,
    better: Sequence[Move],
    played: Move,
    model: OpponentModel,
    rng: random.Random,
    budget: int,
) -> tuple[float, float] | None:
    """``cost_of``, with its standard error; ``better``: the better move, or the lays of the turn
    ``hard`` would make from it on."""
    gains: list[float] = []
    for _ in range(REVIEW_ROUNDS):
        gains += [a - b for a, b in _leads(view, (better, (played,)), model, rng, budget)]
        n = len(gains)
        mean = sum(gains) / n
        error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)
        if mean - REVIEW_Z * error >= 0 and mean >= REVIEW_FLOOR:
            return mean, error
        if mean + REVIEW_Z * error < REVIEW_FLOOR:
            return None  # clearly no costly mistake
    return None


def review(
    record: Sequence[tuple[PlayerView, Move]],
    seed: int | str = "review",
    most: int = 3,
    budget: int = REVIEW_BUDGET,
    player: HardPlayer | None = None,
    dealt: PlayerView | None = None,
) -> list[Mistake]:
    """The moves of one seat's hand that cost most, as ``hard`` judges them, costliest first:
    at most ``most``, each found costing at least ``REVIEW_FLOOR`` points, the cost named then
    measured anew on worlds of its own (``_named``; for those named only). ``record``: the views
    the seat acted on in the hand, oldest first, with the moves it made (``resume.seat_history``).
    ``player``: the ``hard`` player that judges, new (``HardPlayer(seed)``) if not given.
    ``dealt``: the seat's view of the hand as dealt, if the opponent played first
    (``resume.dealt_view``)."""
    player = player or HardPlayer(seed)
    if dealt is not None:
        player.memory.saw(dealt)
    found: list[_Found] = []
    for index, (view, played) in enumerate(record):
        model = player.memory.observe(view)
        if len(view.legal_moves) > 1:
            better, for_points = player.judge(view, model)
            line = None if better == played or _same_turn(view, better, played) else _line(
                view, better, played, model, player)
            if line is not None:
                rng = random.Random(f"{seed}:review:{decision_key(view)}")
                measured = _measured(view, line, played, model, rng, budget)
                if measured is not None:
                    found.append(_Found(measured[0], index, view, played, better, line, model,
                                        reason(view, better, model, for_points, played,
                                               past=True)))
        player.memory.note(view, played)
    found.sort(key=lambda f: (-f.found, f.at))
    # Only the mistakes named are measured anew: the rest would be for nothing (a review of
    # a random player's hand finds a dozen). The model is a value, the memory's later views
    # leave it as it was, so the worlds are those the decision would have sampled.
    # One measured anew at less than ``REVIEW_FLOOR`` is not named (the review would say "about
    # 1 point better" of a move its own fresh worlds found no better): the next one is tried,
    # twice ``most`` at the most.
    named: list[Mistake] = []
    for f in found[:2 * most]:
        if len(named) == most:
            break
        checked, _ = _named(f.view, f.line, f.played, f.model,
                            random.Random(f"{seed}:review-cost:{decision_key(f.view)}"),
                            REVIEW_NAMED * budget)
        if checked < REVIEW_FLOOR:
            continue
        # Said from worlds of its own again: those that kept it (at least the floor) lean
        # high as a lot, as the first did (``bench/coach_costs.py``: +0.40 points a mistake of
        # a ``normal`` student; -0.07, standard error 0.11, said from these).
        cost, error = _named(f.view, f.line, f.played, f.model,
                             random.Random(f"{seed}:review-said:{decision_key(f.view)}"),
                             REVIEW_NAMED * budget)
        named.append(Mistake(f.at, f.view, f.played, f.better, cost, f.why, error))
    named.sort(key=lambda m: (-m.cost, m.at))
    return named


class _Found(NamedTuple):
    """A mistake as the review finds it, before its cost is named (``_named``)."""

    #: The cost that found it (which picks the costliest, never named).
    found: float
    at: int
    view: PlayerView
    played: Move
    better: Move
    #: What ``played`` is judged against (``_line``).
    line: tuple[Move, ...]
    #: What the seat knew of the opponent's hand at the decision.
    model: OpponentModel
    why: Text


def _named(
    view: PlayerView,
    better: Sequence[Move],
    played: Move,
    model: OpponentModel,
    rng: random.Random,
    budget: int,
) -> tuple[float, float]:
    """The cost of ``played`` against ``better`` and its standard error, on worlds of its own:
    not those that judged it costly, which are, as a lot, luckier for ``better``."""
    gains = [a - b for a, b in _leads(view, (better, (played,)), model, rng, budget)]
    n = len(gains)
    mean = sum(gains) / n
    return mean, math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)


def _same_turn(view: PlayerView, a: Move, b: Move) -> bool:
    """Whether ``a`` and ``b`` are two melds of a turn that lays them all, in whatever order:
    under compulsory melding, melds sharing no card are each laid in the end."""
    lays = [m for m in view.legal_moves if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
    return (
        a in lays and b in lays and policy._apart(lays) and not rules_of(view).optional_melding
    )


def _line(view: PlayerView, better: Move, played: Move, model: OpponentModel,
          player: HardPlayer) -> tuple[Move, ...] | None:
    """What ``played`` is judged against: ``better``; or None where the meld ``played`` only put
    the meld ``better`` off (``better`` may still be laid after it in the same turn, where the
    next decision judges it: charged here too, one mistake would count twice), being one that
    ``player`` lays too, after ``better``, in its own lays of the turn. A meld it would not
    lay at all (its cards meant for another) is a mistake of its own, which no later decision
    charges: it is judged against ``player``'s lays of the turn, ``better`` first (``better``
    alone would be played out by the playouts' policy, which may lay ``played`` after it)."""
    lays = (MoveKind.MELD, MoveKind.EXTEND)
    if played.kind not in lays or better.kind not in lays:
        return (better,)
    # The seat's moves depend only on what it sees: any world agreeing with the view lists them.
    world = sample_world(view, random.Random(0), model, rules_of(view))
    after = world.copy()
    after.apply(played)
    if after.turn != view.seat or after.over or better not in after.legal_moves():
        return (better,)
    line = [better]
    world.apply(better)
    for _ in view.legal_moves:  # (a bound: each lay takes a card from the hand)
        if world.turn != view.seat or world.over:
            break
        move = player.judge(_seen(view, world), model)[0]
        if move == played:
            return None
        if move.kind not in lays:
            break  # its lays over, ``played`` not among them
        line.append(move)
        world.apply(move)
    return tuple(line)


def _seen(view: PlayerView, world: HandState) -> PlayerView:
    """The seat's view of ``world``, a hand agreeing with ``view`` that the seat played on in."""
    holder = Session(rules_of(view), "coach")
    world._heading = (holder.rules, view.game, view.hand_no, world.dealer,
                      tuple(view.hand_scores), *view.games_won, view.winner)
    holder.hand = world
    return holder.view(view.seat)
