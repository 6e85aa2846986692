"""Meld options of a hand against a table, and the search behind ``take 2`` (its quick check,
which most often settles it first, is ``umtali.reach``).

Both the legal-move listing and the check that a player who takes two can meld both use
``meld_options``, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Final

from umtali.cards import JACK, JACKS, KING, QUEEN, RANK_MASK, TEN
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
from umtali.reach import PAIR_ONLY, closed_by, lonely_cards, may_meld_all, may_reach, way

# The quick check, as the take-two tests know it.
_may_meld_all = may_meld_all
_BIT: Final = tuple(1 << c for c in range(52))

#: An option: (kind, cards, index of the extended meld or -1).
Option = tuple[PlayKind, int, int]


#: The pairs of each hand of two or three cards (a few thousand hands), made as they are met.
_PAIRS: dict[int, tuple[int, ...]] = {}

# Bound once: the search reads these on every option (a class attribute lookup each in 3.11).
_JACK, _EXTENSION, _PAIR = PlayKind.JACK, PlayKind.EXTENSION, PlayKind.PAIR
_RUN, _SET = Shape.RUN, Shape.SET
_NOT_JACKS = ((1 << 52) - 1) & ~JACKS
_ACE_TO_TEN: Final = (1 << TEN) - 1


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
            acc |= m[2]  # ``m.accepts``: a named tuple's field by index is the faster read
    ext = hand & acc & ~covered
    if ext:
        for i, m in enumerate(melds):
            hits = m[2] & ext
            while hits:
                low = hits & -hits
                out.append((_EXTENSION, low, i))
                hits ^= low
    n = hand.bit_count()
    if n == 2 or n == 3:
        found = _PAIRS.get(hand)
        if found is None:
            found = _PAIRS[hand] = tuple(pairs(hand))
        for p in found:
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
    melds: Sequence[Meld],
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
        # A lone question is nearly always settled by the quick check, and the search never
        # comes back to it: it needs no key.
        return may_meld_all(hand, melds, required, optional, accepts) and _search(
            hand, _live(melds, hand)[0], required, optional, {}
        )
    live, key = _live(melds, hand)  # only these melds matter to the search
    seen = memo.get(key)
    if seen is None:
        seen = may_meld_all(hand, live, required, optional) and _search(
            hand, live, required, optional, memo
        )
        memo[key] = seen
    return seen


def may_take_two(
    hand: int, melds: Sequence[Meld], first: int, second: int, optional: bool, easy: int
) -> bool:
    """``can_meld_all`` for the player to draw who takes the top two discards, ``first`` and
    ``second`` (``hand`` holds them): the question the draw phase asks, where most often the
    quick check says no. The caller has seen that each is a jack, accepted by a table meld
    (both in ``easy``) or has a card of its rank or suit neighbour in hand."""
    two = _BIT[first] | _BIT[second]
    # The cheaper checks first, which settle most of them: a card with no way to the table, or
    # one whose only way is a pair laid last, when that is ruled out.
    way_first = way(first, hand, easy)
    if not way_first:
        return False
    way_second = way(second, hand, easy)
    if not way_second:
        return False
    lonely = -1
    if way_first == PAIR_ONLY or way_second == PAIR_ONLY:
        if way_first == way_second and (first - second) % 13:
            return False  # each only in a pair, of two ranks: one pair at most, the last meld
        lonely = lonely_cards(hand, easy)
        if closed_by(lonely, two):
            return False
    else:
        # Most often when the answer is yes, one new meld of the hand lays both: the search's
        # first option that lays a required card settles it, and the quick check says yes
        # for the cards of a new meld. (A card whose only way is a pair is in no new meld.)
        if in_one_meld(hand, first, second):
            return True
    return may_reach(hand, (first, second), two, easy, optional, lonely) and _search(
        hand, _live(melds, hand)[0], two, optional, {}
    )


def in_one_meld(hand: int, first: int, second: int) -> bool:
    """Whether one new meld of ``hand`` holds both cards: a sequence (ace to ten of a suit) of
    every card between them, with a third beside them when they are neighbours; a group of
    their rank (not jacks) with a third card of it; a marriage of the two."""
    suit, rank = divmod(first, 13)
    suit2, rank2 = divmod(second, 13)
    if suit == suit2:
        if rank > rank2:
            rank, rank2 = rank2, rank
        if rank2 < TEN:  # ace to ten (ranks 0 to 9 here)
            held = hand >> 13 * suit & _ACE_TO_TEN
            span = (2 << rank2) - (1 << rank)  # the two and every rank between them
            return held & span == span and (
                rank2 - rank >= 2 or bool(held & (span << 1 | span >> 1) & ~span))
        return rank == QUEEN - 1 and rank2 == KING - 1
    return rank == rank2 and rank != JACK - 1 and (hand & RANK_MASK[rank + 1]).bit_count() > 2


def _live(
    melds: Sequence[Meld], hand: int, grown: Meld | None = None, index: int = -1
) -> tuple[tuple[Meld, ...], tuple[int, ...]]:
    """The melds that matter to the search below ``hand``, in one order (by their cards), and
    the memo's key of the position: the hand and those melds' cards. ``grown`` replaces the
    meld at ``index``, or is added when ``index`` is -1.

    A meld that accepts no card of the hand is dropped: it grows only by cards laid from the
    hand, so it never changes again. Melds of jacks alone that accept no card of the hand but
    jacks (a lone jack whose ten and queen are gone) are one pool: each takes any jack and
    nothing else, so how the jacks are split among them makes no difference.
    """
    out: list[Meld] = []
    pool = 0
    for i, m in enumerate(melds):
        if i == index and grown is not None:
            m = grown
        acc = m[2] & hand
        if acc:
            if acc & _NOT_JACKS or m[1] & _NOT_JACKS:
                out.append(m)
            else:
                pool |= m[1]
    if grown is not None and index < 0:
        acc = grown[2] & hand
        if acc:
            if acc & _NOT_JACKS or grown[1] & _NOT_JACKS:
                out.append(grown)
            else:
                pool |= grown[1]
    if pool:
        out.append(_POOLS[pool])
    if len(out) > 1:
        out.sort(key=_CARDS_OF)
    return tuple(out), (hand, *map(_CARDS_OF, out))


_JACK_BITS = tuple(b for b in (1 << c for c in range(52)) if b & JACKS)
#: The pool of jacks for each set of them (by mask): a group of jacks, taking the others.
_POOLS: Final = {
    m: Meld(_SET, m, JACKS & ~m)
    for m in (sum(j for k, j in enumerate(_JACK_BITS) if n >> k & 1) for n in range(1, 16))
}
_CARDS_OF = itemgetter(1)  # a meld's cards, read in C when melds are sorted


def _search(
    hand: int,
    melds: tuple[Meld, ...],
    required: int,
    optional: bool,
    memo: Memo,
) -> bool:
    """The search below a position that still holds a required card.

    Only *live* melds are kept: those that accept a card of the hand. A meld grows only by
    cards laid from the hand, so one that accepts none of them never changes again and
    nothing in the search can depend on it: dropping it makes positions that differ only in
    dead melds one position (many ways of laying jacks and completed groups, say).

    The memo is keyed by the hand and the cards of each live meld, sorted: a meld's cards
    decide its shape and what it accepts, and sorting makes every order of laying the same
    melds one position. Plays only take cards from the hand, so the search never comes back
    to a position it is inside.
    """
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
            m2, key = _live(melds, rest, new_meld(kind, cards))
        else:
            m2, key = _live(melds, rest, extended(melds[index], cards.bit_length() - 1), index)
        seen = memo.get(key)
        if seen is None:
            # A play can strand a required card (lay the only card it pairs with, say).
            seen = may_meld_all(rest, m2, required, optional) and _search(
                rest, m2, required, optional, memo
            )
            memo[key] = seen
        if seen:
            return True
    return False


def canonical_target(meld: Meld, card: int) -> int:
    """The card that names ``meld`` in the notation when ``card`` extends it: the end card it
    lies next to for a run, else the meld's first card."""
    shape, cards = meld[0], meld[1]  # by index: faster than by name
    low = (cards & -cards).bit_length() - 1
    if shape is _RUN and card > low:
        return cards.bit_length() - 1
    return low
