"""A judgement of discards learned from self-play: a linear value of each of ``normal``'s best
discards, from features of the seat's view, fitted to what the discard was worth in play.

``bench/value_data.py`` plays games and values each of ``normal``'s best three discards by
playouts in the real hand (the same shuffles of the stock for every discard), and
``bench/value_fit.py`` fits the weights (``value_weights``) by ridge least squares on each
discard's value against the others of its decision, linear and quadratic in the features
(standardised). So the weights say how each feature of a
discard moves its worth, as play showed it, where ``heuristics`` and ``lookahead`` say it by
hand. The features read only the seat's ``Outlook`` and what its memory tells of the
opponent's turns (the cards they shed, the cards they left on the pile): nothing hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from umtali.ai import lookahead, policy
from umtali.ai.heuristics import (
    PARTNER_SETS,
    feed_chance,
    holding_odds,
    keep_values,
    marriage_partner,
    outs,
    table_outs,
)
from umtali.ai.outlook import Outlook
from umtali.ai.value_weights import LINEAR, MEANS, QUADRATIC, SCALES
from umtali.cards import JACK, POINTS, QUEEN, RANK_MASK, iter_cards
from umtali.moves import Move

#: How many of ``normal``'s best discards are valued.
WIDTH = 3
#: What ``features`` returns, in order: of the discard, then of the hand it leaves.
FEATURES = (
    "next turn (lookahead)", "feeding the opponent", "feed chance", "points shed",
    "keep value shed", "keep values left", "points left", "dead points left",
    "dead cards left", "live outs left", "live outs of the card shed",
    "dead points, opponent near out", "shed card extends the table",
    "its rank unseen", "its rank shed by the opponent", "its suit neighbours shed",
    "its rank left on the pile", "its suit neighbours left on the pile",
    "its rank taken by the opponent", "its suit neighbours taken", "its suit neighbours unseen",
    "its marriage partner unseen", "its marriage partner shed or left",
    "an ace", "a 2 to 4", "an 8 to 10", "a queen or king",
    "feeding, opponent near out", "feeding, stock low", "points shed, opponent near out",
    "points left, opponent near out", "live pairs left", "live sequence pieces left",
    "lone marriage halves left", "next turn, stock low",
    # Of the position (the same for every discard: they count in the products only).
    "opponent hand size", "stock size", "hand size",
    # More of the discard.
    "it goes with the card beneath it", "its meld partners all unseen",
    "its meld partners, one taken by the opponent", "a 5 to 7",
)


class Signals(NamedTuple):
    """What the opponent's turns showed, as card masks."""

    #: Cards the opponent shed this hand.
    shed: int = 0
    #: Cards on the pile the opponent did not shed: cards they left there.
    passed: int = 0


def signals_of(pile: Sequence[int | None], discards: Sequence[int]) -> Signals:
    """``Signals`` from the pile as the view shows it and the opponent's discards (memory)."""
    shed = 0
    for c in discards:
        shed |= 1 << c
    seen = 0
    for p in pile:
        if p is not None:
            seen |= 1 << int(p)
    return Signals(shed, seen & ~shed)


def _suit_near(card: int) -> int:
    """The cards of ``card``'s suit within two ranks of it (a sequence's partners)."""
    r = card % 13
    base = card - r
    m = 0
    for x in (r - 2, r - 1, r + 1, r + 2):
        if 0 <= x <= 12:
            m |= 1 << (base + x)
    return m


def _same_rank(card: int) -> int:
    return RANK_MASK[card % 13 + 1] & ~(1 << card)


def _shape(kept: int, live: int) -> tuple[int, int, int]:
    """Pairs, two-card sequence pieces and lone marriage halves in ``kept`` whose meld is
    still live."""
    pairs = pieces = halves = 0
    for rank in range(1, 14):
        if rank == JACK:
            continue
        same = RANK_MASK[rank]
        if (kept & same).bit_count() == 2 and live & same:
            pairs += 1
    for suit in range(4):
        base = suit * 13
        row = (kept >> base) & 0x3FF
        free = (live >> base) & 0x3FF
        for low in range(8):
            window = (row >> low) & 0b111
            if window.bit_count() == 2 and (free >> low) & 0b111 & ~window:
                pieces += 1
    for c in iter_cards(kept):
        p = marriage_partner(c)
        if p and not kept & p and live & p:
            halves += 1
    return pairs, pieces, halves


def dead_cards(kept: int, beyond: dict[int, int], live: int) -> tuple[int, int, int]:
    """Of the cards ``kept``: the points and the number of those no ``live`` card would meld
    (``beyond``: what the table takes), and the live cards that would meld any of them."""
    dead_points = dead = union = 0
    for c in iter_cards(kept):
        reach = outs(c, kept, beyond) & live
        union |= reach
        if not reach:
            dead_points += POINTS[c]
            dead += 1
    return dead_points, dead, union


def features(
    o: Outlook, card: int, draws: Sequence[int], odds: list[float], signals: Signals,
    values: dict[int, float],
) -> list[float]:
    """``FEATURES`` of shedding ``card`` (``odds``: ``holding_odds`` of ``o``; ``values``:
    ``keep_values`` of the hand)."""
    kept = o.hand & ~(1 << card)
    bit = 1 << card
    pts = POINTS[card]
    ahead = sum(lookahead.next_turn_value(o, kept | 1 << c) for c in draws) / len(draws)
    feed = feed_chance(card, o, odds)
    beyond = table_outs(o.melds)
    live = o.live
    dead_points, dead, union = dead_cards(kept, beyond, live)
    left = keep_values(o._replace(hand=kept), kept)
    near = 1.0 if o.opponent_size <= 3 else 0.0
    late = 1.0 if o.stock_size <= 8 else 0.0
    same, suit_near, partner = _same_rank(card), _suit_near(card), marriage_partner(card)
    rank = card % 13 + 1
    pairs, pieces, halves = _shape(kept, live)
    points_left = sum(POINTS[c] for c in iter_cards(kept))
    return [
        ahead,
        feed * (pts + 1.0),
        feed,
        float(pts),
        values[card],
        sum(left.values()),
        float(points_left),
        float(dead_points),
        float(dead),
        float(union.bit_count()),
        float((outs(card, o.hand, beyond) & live).bit_count()),
        dead_points * near,
        1.0 if bit & o.accepts else 0.0,
        float((same & o.unseen).bit_count()),
        float((same & signals.shed).bit_count()),
        float((suit_near & signals.shed).bit_count()),
        float((same & signals.passed).bit_count()),
        float((suit_near & signals.passed).bit_count()),
        float((same & o.known_opponent).bit_count()),
        float((suit_near & o.known_opponent).bit_count()),
        float((suit_near & o.unseen).bit_count()),
        1.0 if partner & o.unseen else 0.0,
        1.0 if partner & (signals.shed | signals.passed) else 0.0,
        1.0 if rank == 1 else 0.0,
        1.0 if 2 <= rank <= 4 else 0.0,
        1.0 if 8 <= rank <= 10 else 0.0,
        1.0 if rank >= QUEEN else 0.0,
        feed * (pts + 1.0) * near,
        feed * (pts + 1.0) * late,
        pts * near,
        points_left * near,
        float(pairs),
        float(pieces),
        float(halves),
        ahead * late,
        *more_features(o, card, signals),
    ]


def more_features(o: Outlook, card: int, signals: Signals) -> list[float]:
    """The features after the first 35 (cheap: ``bench/value_fit.py`` adds them to data
    gathered before they were)."""
    rank = card % 13 + 1
    under = o.top
    goes = 0.0
    if under >= 0 and rank != JACK:
        near = _same_rank(card) | _suit_near(card) | marriage_partner(card)
        goes = 1.0 if (1 << under) & near else 0.0
    all_unseen = with_known = 0
    for cards in PARTNER_SETS[card]:
        m = 0
        for c in cards:
            m |= 1 << c
        if m & o.unseen == m:
            all_unseen += 1
            if m & o.known_opponent:
                with_known += 1
    return [
        float(o.opponent_size), float(o.stock_size), float(o.hand.bit_count() - 1),
        goes, float(all_unseen), float(with_known), 1.0 if 5 <= rank <= 7 else 0.0,
    ]


def score(xs: Sequence[float]) -> float:
    """The learned worth of a discard (against the others of its decision) with features
    ``xs``: linear and quadratic in the standardised features."""
    z = [(x - m) / s for x, m, s in zip(xs, MEANS, SCALES, strict=True)]
    total = 0.0
    k = 0
    for i, zi in enumerate(z):
        total += LINEAR[i] * zi
        for zj in z[i:]:
            total += QUADRATIC[k] * zi * zj
            k += 1
    return total


def candidates(o: Outlook, legal: Sequence[Move], width: int = WIDTH) -> list[Move]:
    """The discards valued: ``normal``'s best ``width``."""
    return policy.rank_discards(o, legal)[:width]


def choose_discard(o: Outlook, legal: Sequence[Move], signals: Signals) -> Move:
    """Of ``normal``'s best ``WIDTH`` discards, the one the learned value ranks highest; ties
    keep ``normal``'s order. Where the look ahead would not look (the last turn, the last card,
    no card left to draw), ``normal``'s discard."""
    ranked = candidates(o, legal)
    draws = list(iter_cards(o.live))
    if len(ranked) < 2 or o.last_turn or o.hand.bit_count() <= 2 or not draws:
        return ranked[0]
    odds = holding_odds(o)
    values = keep_values(o, o.hand)
    best, best_score = ranked[0], float("-inf")
    for move in ranked:
        s = score(features(o, move.card, draws, odds, signals, values))
        if s > best_score:
            best, best_score = move, s
    return best


assert len(FEATURES) == len(LINEAR) == len(MEANS) == len(SCALES)
assert len(QUADRATIC) == len(FEATURES) * (len(FEATURES) + 1) // 2
