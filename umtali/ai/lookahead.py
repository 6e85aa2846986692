"""One draw ahead: of ``normal``'s two best discards, the one that leaves the better next turn,
counting every card the seat may draw; and the top discard taken when it beats that average.

``normal`` judges each card alone (its chance of being melded, its risk, what it may give the
opponent). Looking one draw ahead judges the hand as a whole: for each card the seat may draw
next, the melds that hand would lay and what its cards left would be worth, less the card it
would then shed. Measured on paired deals against ``normal`` (``bench/levers.py``'s way, 1,200
games): choosing so between ``normal``'s two best discards leads by +0.5 points a hand (standard
error 0.13); between its three or four best, by +0.4 and +0.3 (the lookahead's own judgement is
rough further down). Deciding the draw the same way as well, against ``normal``'s rule only when
the two differ by more than a point, brought the lead to +0.86 (0.15); with no such margin it
fell to +0.20.

Pure arithmetic on the seat's ``Outlook``: deterministic, and a few milliseconds a discard.
"""

from __future__ import annotations

from collections.abc import Sequence

from umtali.ai import policy
from umtali.ai.heuristics import feed_chance, holding_odds, keep_values
from umtali.ai.outlook import Outlook
from umtali.cards import POINTS, iter_cards
from umtali.moves import Move, MoveKind
from umtali.search import meld_options

#: How many of ``normal``'s best discards are weighed.
WIDTH = 2
#: How much better, in points, taking the top discard must look than drawing from the stock
#: (or the other way round) to overrule ``normal``'s draw.
DRAW_MARGIN = 1.0


def next_turn_value(o: Outlook, hand: int, kept: int = -1) -> float:
    """The seat's next turn holding ``hand`` (the draw made): the points of the richest plan
    of melds, then what the cards left are worth keeping, less the least of them (shed); the
    card ``kept``, taken from the pile this turn, is not shed unless it is the last."""
    laid, left = 0.0, hand
    best: tuple[float, int] | None = None
    for option in meld_options(hand, o.melds, o.optional):
        planned = policy.plan(hand, o.melds, option, o.optional)
        if best is None or planned[0] > best[0]:
            best = planned
    if best is not None:
        laid, left = best
    if not left:
        return laid
    worth = keep_values(o._replace(hand=left), left)
    shed = [v for c, v in worth.items() if c != kept] or list(worth.values())
    return laid + sum(worth.values()) - min(shed)


def discard_value(o: Outlook, card: int, draws: Sequence[int], odds: list[float]) -> float:
    """What shedding ``card`` leads to: the next turn's value averaged over ``draws``, less
    what the card may give the opponent (``odds``: ``holding_odds`` of ``o``)."""
    kept = o.hand & ~(1 << card)
    ahead = sum(next_turn_value(o, kept | 1 << c) for c in draws) / len(draws)
    return ahead - feed_chance(card, o, odds) * (POINTS[card] + 1.0)


def choose_discard(o: Outlook, legal: Sequence[Move]) -> Move:
    """The discard to make: ``normal``'s, unless another of its best ``WIDTH`` leads to a
    better next turn. Ties keep ``normal``'s order."""
    ranked = policy.rank_discards(o, legal)
    draws = list(iter_cards(o.live))
    if len(ranked) < 2 or o.last_turn or o.hand.bit_count() <= 1 or not draws:
        return ranked[0]
    odds = holding_odds(o)
    best, best_value = ranked[0], float("-inf")
    for move in ranked[:WIDTH]:
        value = discard_value(o, move.card, draws, odds)
        if value > best_value:
            best, best_value = move, value
    return best


def draw_values(o: Outlook) -> tuple[float, float]:
    """This turn's value after drawing from the stock (averaged over the cards the seat may
    draw) and after taking the top discard."""
    draws = list(iter_cards(o.live))
    stock = sum(next_turn_value(o, o.hand | 1 << c) for c in draws) / max(1, len(draws))
    return stock, next_turn_value(o, o.hand | 1 << o.top, kept=o.top)


def choose_draw(o: Outlook, legal: Sequence[Move]) -> Move:
    """``normal``'s draw, unless the top discard looks clearly better or clearly worse than a
    card from the stock (``DRAW_MARGIN``). Taking two, when allowed, is always taken."""
    usual = policy.choose_draw(o, legal)
    take = next((m for m in legal if m.kind is MoveKind.TAKE), None)
    draw = next((m for m in legal if m.kind is MoveKind.DRAW), None)
    if usual.kind is MoveKind.TAKE_TWO or take is None or draw is None or not o.live:
        return usual
    stock, pile = draw_values(o)
    if pile > stock + DRAW_MARGIN:
        return take
    if usual == take and pile < stock - DRAW_MARGIN:
        return draw
    return usual
