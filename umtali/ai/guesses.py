"""The work of the particle filter over the opponent's hand (``particles``), on plain masks and
lists so that it compiles with the engine: carrying the guesses through a turn of the
opponent's, fitting them to a view, resampling them.

A guess is a mask of the cards it says the opponent holds; its weight, how likely what the
opponent did is, had they held it. Random numbers come from the caller's seeded ``rng``, in
a fixed order, so the same calls give the same guesses.
"""

from __future__ import annotations

import math
import random

from umtali.ai.heuristics import keep_values
from umtali.ai.outlook import Outlook
from umtali.cards import FULL_DECK, JACKS, iter_cards
from umtali.melds import Meld, cover

#: How much less likely a hand that could have melded the top discard at once left it
#: (``normal`` takes such a card).
PASS_LIKELIHOOD = 0.15
#: The weight of a hand left holding a meld or a card the table accepts (compulsory melding
#: allows neither).
MELD_LIKELIHOOD = 0.01


def pick(mask: int, rng: random.Random) -> int:
    """One card of ``mask`` (not empty) at random."""
    cards = [int(c) for c in iter_cards(mask)]
    return cards[rng.randrange(len(cards))]


def meld_free(hand: int, accepts: int) -> bool:
    """Whether ``hand`` holds no new meld and no card the table accepts."""
    return not cover(hand) and not hand & (accepts | JACKS)


class Turn:
    """One turn of the opponent's, as the view tells it: what carrying a guess through it
    needs."""

    def __init__(
        self, taken: int, shed: int, laid: int, accepts_before: int,
        melds_after: tuple[Meld, ...], accepts_after: int, seen: int, our_size: int,
        stock_size: int, pool: int, stock_draw: bool, passed: int,
    ) -> None:
        #: Cards taken from the pile.
        self.taken = taken
        #: The card shed, or -1.
        self.shed = shed
        #: Cards laid on the table.
        self.laid = laid
        #: Cards the table accepted when the turn began, and its melds and the cards it
        #: accepted when it ended.
        self.accepts_before = accepts_before
        self.melds_after = melds_after
        self.accepts_after = accepts_after
        #: Cards the opponent saw when shedding, besides their hand: the table and the pile.
        self.seen = seen
        #: This seat's hand size and the stock's, as the opponent saw them when shedding.
        self.our_size = our_size
        self.stock_size = stock_size
        #: Cards a stock draw may have been.
        self.pool = pool
        self.stock_draw = stock_draw
        #: The top discard left on the pile for a stock draw, or -1.
        self.passed = passed


def likely(held: int, turn: Turn, sharpness: float) -> float:
    """How likely ``normal``'s judgement would shed ``turn.shed`` from ``held``: 1 for the
    card it values least, less by ``exp(-sharpness * gap)`` for one valued ``gap`` more
    (the card taken this turn may not be shed)."""
    shed = turn.shed
    if shed < 0 or held.bit_count() <= 1:
        return 1.0
    o = Outlook(held, turn.melds_after, turn.accepts_after, FULL_DECK & ~held & ~turn.seen, 0,
                turn.our_size, turn.stock_size, -1, False)
    values = keep_values(o, held)
    taken = turn.taken
    lowest = values[shed]
    for c, v in values.items():
        if not taken >> c & 1 and v < lowest:
            lowest = v
    return math.exp(-sharpness * max(0.0, values[shed] - lowest))


def carry(
    hands: list[int], weights: list[float], turn: Turn, known: int, cost: float,
    sharpness: float, rng: random.Random,
) -> None:
    """Carry every guess through ``turn``, weighing it by how likely the turn was from it."""
    taken, laid, stock_draw = turn.taken, turn.laid, turn.stock_draw
    shed_bit = 0 if turn.shed < 0 else 1 << turn.shed
    must = laid | shed_bit
    acc_after = turn.accepts_after
    for i in range(len(hands)):
        hand = hands[i]
        w = 1.0
        if turn.passed >= 0:
            bit = 1 << turn.passed
            if bit & (turn.accepts_before | JACKS) or cover(hand | bit) & bit:
                w *= PASS_LIKELIHOOD
        hand |= taken
        need = must & ~hand
        # A card they laid or shed that the guess lacks was in their hand after all: it
        # takes the place of one of the guess's cards.
        for card in iter_cards(need):
            spare = hand & ~must & ~taken & ~known
            if spare:
                hand &= ~(1 << pick(spare, rng))
            hand |= 1 << card
            w *= cost
        judged = False
        if stock_draw:
            # The card drawn, in proportion to how well it fits what they did next: it left no
            # meld, and they shed ``shed`` rather than it or another card.
            free = turn.pool & ~hand
            ok = [int(c) for c in iter_cards(free) if meld_free((hand | 1 << c) & ~must, acc_after)]
            if ok:
                fits = [likely((hand | 1 << c) & ~laid, turn, sharpness) for c in ok]
                total = sum(fits)
                target = rng.random() * total
                k = 0
                while k < len(ok) - 1 and target > fits[k]:
                    target -= fits[k]
                    k += 1
                x = ok[k]
                w *= total / max(1, free.bit_count())
                judged = True
                hand |= 1 << x
            elif free:
                hand |= 1 << pick(free, rng)
                w *= 1 / free.bit_count()
        held = hand & ~laid
        if not judged:
            w *= likely(held, turn, sharpness)
        hand = held & ~shed_bit
        if not meld_free(hand, acc_after):
            w *= MELD_LIKELIHOOD
        hands[i] = hand
        weights[i] *= w


def fit(
    hands: list[int], weights: list[float], hidden: int, known: int, size: int, cost: float,
    rng: random.Random,
) -> None:
    """Every guess made to fit a view: no card outside ``hidden`` (a card the seat now sees
    costs ``cost``), every ``known`` card, ``size`` cards."""
    if known.bit_count() > size:
        known = 0  # stale memory: trust the counts instead (as ``sample_world`` does)
    for i in range(len(hands)):
        hand = hands[i]
        gone = hand & ~hidden
        if gone:
            weights[i] *= cost ** gone.bit_count()
        hand = (hand & hidden) | known
        while hand.bit_count() > size and hand & ~known:
            hand &= ~(1 << pick(hand & ~known, rng))
        while hand.bit_count() < size and hidden & ~hand:
            hand |= 1 << pick(hidden & ~hand, rng)
        hands[i] = hand
    if not sum(weights) > 0:
        for i in range(len(weights)):
            weights[i] = 1.0


def resample(hands: list[int], weights: list[float], rng: random.Random) -> None:
    """Weights made to sum to 1; when they have grown uneven (an effective count under half),
    guesses drawn again in proportion to them (systematic resampling), all weighing alike.

    Moving a card of each copy, to keep the guesses apart, held fewer of the real cards
    (``bench/particles.py``: 21.7% against 23.5%)."""
    n = len(weights)
    total = sum(weights)
    if not total > 0:
        weights[:] = [1.0] * n
        return
    normal = [w / total for w in weights]
    ess = 1.0 / sum(w * w for w in normal)
    if ess >= n / 2:
        weights[:] = normal
        return
    step = 1.0 / n
    u = rng.random() * step
    out: list[int] = []
    cum = normal[0]
    j = 0
    for k in range(n):
        target = u + k * step
        while target > cum and j < n - 1:
            j += 1
            cum += normal[j]
        out.append(hands[j])
    hands[:] = out
    weights[:] = [1.0] * n


def shares(hands: list[int], weights: list[float]) -> list[float]:
    """For each card, the weighted share of the guesses that hold it."""
    total = sum(weights)
    out = [0.0] * 52
    for h, w in zip(hands, weights, strict=True):
        for c in iter_cards(h):
            out[c] += w / total
    return out
