"""Meld options of a hand against a table, and the search behind ``take 2``.

Both the legal-move listing and the check that a player who takes two can meld both use
``meld_options``, so the two can never disagree.
"""

from __future__ import annotations

from typing import Final

from umtali.cards import CARDS, JACKS, RANK_MASK, SUIT_MASK
from umtali.melds import (
    Meld,
    PlayKind,
    Shape,
    cover,
    extended,
    meldable,
    new_meld,
    new_melds,
    pairs,
)

#: An option: (kind, cards, index of the extended meld or -1).
Option = tuple[PlayKind, int, int]


# Bound once: the search reads these on every option (a class attribute lookup each in 3.11).
_JACK, _EXTENSION, _PAIR, _RUN = PlayKind.JACK, PlayKind.EXTENSION, PlayKind.PAIR, Shape.RUN


def _neighbours(card: int) -> int:
    c = CARDS[card]
    same_rank = RANK_MASK[c.rank] & ~(1 << card)
    seq = 0
    if c.rank > 1:
        seq |= 1 << (card - 1)
    if c.rank < 13:
        seq |= 1 << (card + 1)
    return same_rank | (seq & SUIT_MASK[c.suit])


#: Cards that must be in the hand or on the table for a card to be meldable at all.
NEIGHBOURS: Final = tuple(_neighbours(c) for c in range(52))


def meld_options(
    hand: int, melds: tuple[Meld, ...] | list[Meld], optional: bool, accepts: int = -1
) -> list[Option]:
    """Every meld the hand may lay now: new melds, lone jacks, extensions, and a pair when it is
    the last meld of a player going out. ``accepts``, what the table's melds accept, may be
    given when the caller knows it."""
    covered = cover(hand)  # the cards of every new meld: none, no new meld to look for
    out: list[Option] = [(k, m, -1) for k, m in new_melds(hand)] if covered else []
    jacks = hand & JACKS
    while jacks:
        low = jacks & -jacks
        out.append((_JACK, low, -1))
        jacks ^= low
    acc = accepts
    if acc < 0:
        acc = 0
        for m in melds:
            acc |= m.accepts
    ext = hand & acc & ~covered
    if ext:
        for i, m in enumerate(melds):
            hits = m.accepts & ext
            while hits:
                low = hits & -hits
                out.append((_EXTENSION, low, i))
                hits ^= low
    n = hand.bit_count()
    if n == 2 or n == 3:
        for p in pairs(hand):
            rest = hand & ~p
            # The card left after a pair is discarded to go out; under compulsory melding it
            # must be one that cannot be melded.
            if not rest or optional or not meldable(rest, acc):
                out.append((_PAIR, p, -1))
    return out


def after(
    hand: int, melds: tuple[Meld, ...], option: Option
) -> tuple[int, tuple[Meld, ...]]:
    kind, cards, index = option
    if kind is _EXTENSION:
        card = cards.bit_length() - 1
        grown = extended(melds[index], card)
        return hand & ~cards, (*melds[:index], grown, *melds[index + 1 :])
    return hand & ~cards, (*melds, new_meld(kind, cards))


#: What the search has settled, by ``_table_key``; valid for one ``required`` and rule set.
Memo = dict[tuple[int, ...], bool]


def can_meld_all(
    hand: int,
    melds: tuple[Meld, ...],
    required: int,
    optional: bool,
    memo: Memo | None = None,
    accepts: int = -1,
) -> bool:
    """Whether some series of melds this turn lays every card of ``required``.

    Calls that share ``required`` and ``optional`` may share a ``memo`` (the options of one
    turn lead to many of the same positions). ``accepts``, what the table's melds accept, may
    be given when the caller knows it.
    """
    if not hand & required:
        return True
    if memo is None:
        # A lone question (take 2 in the draw phase) is nearly always settled by the quick
        # check, and the search never comes back to it: it needs no key.
        return _may_meld_all(hand, melds, required, accepts) and _search(
            hand, melds, required, optional, {}
        )
    key = (hand, *sorted(m.cards for m in melds))
    seen = memo.get(key)
    if seen is None:
        seen = _may_meld_all(hand, melds, required) and _search(
            hand, melds, required, optional, memo
        )
        memo[key] = seen
    return seen


def _may_meld_all(
    hand: int, melds: tuple[Meld, ...], required: int, accepts: int = -1
) -> bool:
    """A quick necessary condition for every required card still in hand to be meldable this
    turn.

    ``reachable`` holds the cards that could be laid at once: jacks, cards a table meld accepts
    and cards of new melds. A card gets on the table by one of those, after a chain of its
    suit's cards in hand is laid from a reachable card towards it (``_may_lay``), or in a pair
    with another card of its rank. A pair is only ever the last meld of a player going out, so
    every other card in hand but one (the discard) must get on the table before it.
    """
    acc = accepts
    if acc < 0:
        acc = 0
        for m in melds:
            acc |= m.accepts
    left = hand & required
    # Most often a card settles it at once: no jack, taken by no table meld, and with no
    # card of its rank or suit neighbour in hand, it has no way at all to the table.
    easy = JACKS | acc
    cards = left
    while cards:
        low = cards & -cards
        if not low & easy and not NEIGHBOURS[low.bit_length() - 1] & hand:
            return False
        cards ^= low
    reachable = easy | cover(hand)
    while left:
        low = left & -left
        left ^= low
        card = low.bit_length() - 1
        if _may_lay(card, hand, reachable):
            continue
        partner = RANK_MASK[card % 13 + 1] & hand & ~low
        if not partner:
            return False
        stuck = 0  # cards that could only be the discard after the pair
        rest = hand & ~low & ~partner
        while rest:
            bit = rest & -rest
            rest ^= bit
            if not _may_lay(bit.bit_length() - 1, hand, reachable):
                stuck += 1
                if stuck > 1:
                    return False
    return True


def _may_lay(card: int, hand: int, reachable: int) -> bool:
    """Whether ``card`` is reachable, or joined to a reachable card by a chain of its suit's
    cards in hand (see ``_may_meld_all``)."""
    if (1 << card) & reachable:
        return True
    rank = card % 13
    for step in (-1, 1):
        x, r = card + step, rank + step
        while 0 <= r < 13 and hand >> x & 1:
            if (1 << x) & reachable:
                return True
            x += step
            r += step
    return False


def _search(
    hand: int,
    melds: tuple[Meld, ...],
    required: int,
    optional: bool,
    memo: Memo,
) -> bool:
    """The search below a position that still holds a required card.

    The memo is keyed by the hand and the cards of each table meld, sorted: a meld's cards
    decide its shape and what it accepts, and sorting makes every order of laying the same
    melds one position. The key of each next position is made before the position itself,
    so a position already settled costs a lookup. Plays only take cards from the hand, so
    the search never comes back to a position it is inside.
    """
    table = [m.cards for m in melds]
    options = meld_options(hand, melds, optional)
    # Melds that lay a required card first: they usually settle the question at once.
    options.sort(key=lambda o: not o[1] & required)
    for opt in options:
        kind, cards, index = opt
        rest = hand & ~cards
        if not rest & required:
            return True
        if kind is _PAIR:
            continue  # nothing but a discard follows a pair
        if index < 0:
            grown = [*table, cards]
        else:
            grown = table.copy()
            grown[index] |= cards
        grown.sort()
        key = (rest, *grown)
        seen = memo.get(key)
        if seen is None:
            h2, m2 = after(hand, melds, opt)
            # A play can strand a required card (lay the only card it pairs with, say).
            seen = _may_meld_all(h2, m2, required) and _search(h2, m2, required, optional, memo)
            memo[key] = seen
        if seen:
            return True
    return False


def canonical_target(meld: Meld, card: int) -> int:
    """The card that names ``meld`` in the notation when ``card`` extends it: the end card it
    lies next to for a run, else the meld's first card."""
    low = (meld.cards & -meld.cards).bit_length() - 1
    if meld.shape is _RUN and card > low:
        return meld.cards.bit_length() - 1
    return low
