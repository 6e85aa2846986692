"""The ``normal`` level's way of choosing a move, from an ``Outlook`` and the legal moves.

Draw: take two when allowed, take the top discard when it can be melded at once, else draw.
Meld: of the melds on offer, lay the one that starts the richest series of melds this turn (a
marriage over a group of kings, a sequence over a group that strands the sequence's cards).
Discard: the card least worth keeping by ``heuristics.keep_value``, the highest card in the last
turn after the opponent went out; the very last card face down.
"""

from __future__ import annotations

from collections.abc import Sequence

from umtali.ai.heuristics import keep_values, usable_now
from umtali.ai.outlook import Outlook
from umtali.cards import POINTS
from umtali.melds import Meld, PlayKind, classify, play_points
from umtali.moves import Move, MoveKind
from umtali.search import Option, after, meld_options

#: Points a plan is worth for emptying the hand: going out wins the opponent's leftovers.
GOING_OUT_BONUS = 8.0


def choose(o: Outlook, legal: Sequence[Move]) -> Move:
    if len(legal) == 1:
        return legal[0]
    first = legal[0].kind
    if first is MoveKind.DRAW or first is MoveKind.TAKE or first is MoveKind.TAKE_TWO:
        return choose_draw(o, legal)
    lays = [m for m in legal if m.kind is MoveKind.MELD or m.kind is MoveKind.EXTEND]
    if lays:
        return choose_meld(o, lays)
    return rank_discards(o, legal)[0]


def choose_draw(o: Outlook, legal: Sequence[Move]) -> Move:
    kinds = {m.kind: m for m in legal}
    if MoveKind.TAKE_TWO in kinds:
        return kinds[MoveKind.TAKE_TWO]
    if MoveKind.TAKE in kinds and o.top >= 0 and usable_now(o.top, o):
        return kinds[MoveKind.TAKE]
    return kinds.get(MoveKind.DRAW, legal[0])


def option_of(move: Move, melds: Sequence[Meld]) -> Option:
    if move.kind is MoveKind.EXTEND:
        bit = 1 << move.target
        index = next(i for i, m in enumerate(melds) if m.cards & bit)
        return (PlayKind.EXTENSION, move.cards, index)
    kind = classify(move.cards)
    assert kind is not None  # a listed meld always classifies
    return (kind, move.cards, -1)


def _points(option: Option) -> int:
    return play_points(option[0], option[1])


def plan(hand: int, melds: tuple[Meld, ...], first: Option, optional: bool) -> tuple[float, int]:
    """Lay ``first`` and then, greedily, the richest meld each time: return the points laid this
    turn (with a bonus for emptying the hand) and the cards left in the hand."""
    total = _points(first)
    hand, melds = after(hand, melds, first)
    while hand:
        options = meld_options(hand, melds, optional)
        if not options:
            break
        best = max(options, key=lambda opt: (_points(opt), opt[1].bit_count(), opt[1]))
        total += _points(best)
        hand, melds = after(hand, melds, best)
        if best[0] is PlayKind.PAIR:
            break
    return total + (GOING_OUT_BONUS if hand.bit_count() <= 1 else 0.0), hand


def _apart(lays: Sequence[Move]) -> bool:
    """Whether no two of ``lays`` share a card: then every one of them is laid whatever the
    order, and only the order differs."""
    seen = 0
    for m in lays:
        if seen & m.cards:
            return False
        seen |= m.cards
    return True


def rank_melds(o: Outlook, lays: Sequence[Move]) -> list[tuple[Move, int]]:
    """The melds among ``lays``, best plan first, each with the hand its plan leaves."""
    if _apart(lays):
        left = o.hand
        for m in lays:
            left &= ~m.cards
        ranked = sorted(lays, key=lambda m: (_points(option_of(m, o.melds)), m.cards))
        return [(m, left) for m in reversed(ranked)]
    scored = []
    for m in lays:
        option = option_of(m, o.melds)
        value, left = plan(o.hand, o.melds, option, o.optional)
        scored.append(((value, _points(option), m.cards), m, left))
    scored.sort(key=lambda t: t[0], reverse=True)
    return [(m, left) for _, m, left in scored]


def choose_meld(o: Outlook, lays: Sequence[Move]) -> Move:
    if len(lays) == 1:
        return lays[0]
    return rank_melds(o, lays)[0][0]


def rank_discards(o: Outlook, legal: Sequence[Move]) -> list[Move]:
    """The discards among ``legal``, best first; the last card goes face down (nothing can then
    be taken from the pile in the opponent's last turn)."""
    discards = [m for m in legal if m.kind is MoveKind.DISCARD]
    if o.hand.bit_count() == 1:
        return sorted(discards, key=lambda m: not m.face_down)
    if o.last_turn:
        # The hand ends with this discard, and what stays in hand scores for the opponent.
        return sorted(discards, key=lambda m: (-POINTS[m.card], m.cards))
    values = keep_values(o, o.hand)
    return sorted(discards, key=lambda m: (values[m.card], m.cards))
