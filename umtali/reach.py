"""The quick check behind ``take 2``: whether each card a player must meld might get on the table
this turn at all. A necessary condition only, cheap where the search (``umtali.search``) is not:
most often it says no, and the search is never asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from umtali.cards import CARDS, JACKS, KING, QUEEN, RANK_MASK, SUIT_MASK
from umtali.melds import NOT_JACK_RANK, SEQ_CARDS, SUIT_COVER, Meld, cover

_QUEENS, _KINGS = RANK_MASK[QUEEN], RANK_MASK[KING]


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
#: Whether two cards are neighbours (of a rank, or next to each other in a suit), by
#: ``first * 52 + second``: the two top discards, read without working on 52-bit masks.
BESIDE: Final = tuple(bool(NEIGHBOURS[a] >> b & 1) for a in range(52) for b in range(52))
_BIT: Final = tuple(1 << c for c in range(52))
_SUIT13: Final = (1 << 13) - 1
#: A 13-bit rank pattern times this is the pattern in every suit.
_SPREAD: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
_NOT_ACES: Final = ((1 << 52) - 1) & ~RANK_MASK[1]
_NOT_KINGS: Final = ((1 << 52) - 1) & ~RANK_MASK[KING]
#: The cards next to each card in its suit.
_SUIT_NEIGHBOURS: Final = tuple(
    NEIGHBOURS[c] & SUIT_MASK[CARDS[c].suit] for c in range(52)
)


def _beside(card: int, step: int) -> int:
    """The card ``step`` ranks above ``card`` in its suit (as a bit), or 0 past the suit's end."""
    rank = card % 13 + step
    return 1 << (card + step) if 0 <= rank < 13 else 0


#: The other cards of each card's rank.
_SAME_RANK: Final = tuple(RANK_MASK[c % 13 + 1] & ~(1 << c) for c in range(52))
#: The card each queen or king makes a marriage with (its king or queen), else 0.
_MARRIED: Final = tuple(
    _beside(c, 1) if c % 13 + 1 == QUEEN else _beside(c, -1) if c % 13 + 1 == KING else 0
    for c in range(52)
)
#: The cards two ranks below and above each card in its suit.
_TWO_AWAY: Final = tuple(_beside(c, -2) | _beside(c, 2) for c in range(52))


def stranded(card: int, hand: int, easy: int) -> bool:
    """Whether ``card`` (in ``hand``) surely has no way to the table this turn: not ``easy`` (a
    jack or a card a table meld takes), no other card of its rank in hand (no group, no pair),
    and at most one suit neighbour in hand, one that is not easy, makes no marriage with it
    and has nothing held beyond it: no run of three, no chain to an anchor. ``may_reach`` then
    says no too (by its reachable cards, ``_may_lay`` and the pair), more slowly."""
    return not way(card, hand, easy)


#: What ``way`` finds of a card: no way to the table, a pair only, maybe another way.
NO_WAY, PAIR_ONLY, SOME_WAY = 0, 1, 2


def way(card: int, hand: int, easy: int) -> int:
    """``NO_WAY`` for a card ``stranded``; ``PAIR_ONLY`` for one that would be stranded but for
    the one other card of its rank in hand (no group): its only way to the table is a pair
    laid last, which ``pair_closed`` may rule out; else ``SOME_WAY``."""
    if _BIT[card] & easy:
        return SOME_WAY
    same = _SAME_RANK[card] & hand
    if same & (same - 1):
        return SOME_WAY  # a group
    near = _SUIT_NEIGHBOURS[card] & hand
    if near and (
        near & easy or near & (near - 1) or near & _MARRIED[card] or _TWO_AWAY[card] & hand
    ):
        return SOME_WAY
    return PAIR_ONLY if same else NO_WAY


def pair_closed(hand: int, easy: int, required: int) -> bool:
    """Whether no pair may be laid last this turn with ``required`` cards in hand: two cards of
    the hand, or a required one, that no meld can lay (see ``_lonely``). ``may_reach`` says no
    for a ``PAIR_ONLY`` card then (it is not reachable, joined to no anchor, and has a partner,
    so the pair is its way), after working out more first."""
    return closed_by(lonely_cards(hand, easy), required)


def lonely_cards(hand: int, easy: int) -> int:
    """``_lonely`` of the whole hand."""
    m = _SUIT13
    return _lonely(hand, easy, hand & m, (hand >> 13) & m, (hand >> 26) & m, hand >> 39)


def closed_by(lonely: int, required: int) -> bool:
    """Whether the ``lonely`` cards of a hand rule out a pair laid last (``pair_closed``)."""
    return bool(lonely and (lonely & (lonely - 1) or lonely & required))


def may_meld_all(
    hand: int, melds: Sequence[Meld], required: int, optional: bool, accepts: int = -1
) -> bool:
    """A quick necessary condition for every required card still in hand to be meldable this
    turn.

    Most often a card settles it at once: no jack, taken by no table meld, and with no card of
    its rank or suit neighbour in hand, it has no way at all to the table. Else see
    ``may_reach``.
    """
    acc = accepts
    if acc < 0:
        acc = 0
        for m in melds:
            acc |= m.accepts
    left = hand & required
    easy = JACKS | acc
    cards = []
    while left:
        low = left & -left
        card = low.bit_length() - 1
        if not low & easy and not NEIGHBOURS[card] & hand:
            return False
        cards.append(card)
        left ^= low
    return may_reach(hand, cards, required, easy, optional)


def may_reach(
    hand: int, cards: Sequence[int], required: int, easy: int, optional: bool,
    lonely: int = -1,
) -> bool:
    """Whether each of ``cards`` (the required cards in hand) might get on the table.

    ``reachable`` holds the cards that could be laid at once: jacks, cards a table meld accepts
    (``easy``) and cards of new melds. A card gets on the table by one of those, after a chain
    of its suit's cards in hand is laid from an ``anchor`` towards it (``_may_lay``), or in a
    pair with another card of its rank. A chain is a run, so its anchor is a card that can be
    laid in a run: a jack (alone, it is a run from its first ten or queen), a card a table meld
    accepts, or a card of a new sequence or marriage; not a card only a group could lay. A pair
    is only ever the last meld of a player going out, so every other card in hand but one (the
    discard) must get on the table before it.
    """
    # ``cover``, ``_run_cover`` and ``locked_groups`` of the hand, from one split into its suits
    # (small integers, fast to work on) and their ``SUIT_COVER``.
    m = _SUIT13
    a = hand & m
    b = (hand >> 13) & m
    c = (hand >> 26) & m
    d = hand >> 39
    sc = SUIT_COVER
    ra, rb, rc, rd = sc[a], sc[b], sc[c], sc[d]
    runs = ra | rb << 13 | rc << 26 | rd << 39  # ``_run_cover(hand)``
    reachable = easy | runs
    groups = ((a & b & (c | d)) | (c & d & (a | b))) & NOT_JACK_RANK
    if groups:
        reachable |= groups * _SPREAD & hand
    locked = -1  # worked out when first needed (and ``lonely``, unless given)
    for card in cards:
        low = _BIT[card]
        if low & reachable:
            continue
        # No run grows through a locked group; runs and the easy cards anchor a chain. (Most
        # often no chain reaches an anchor through the whole hand: then none does through
        # fewer cards, and the locked groups are not needed.)
        if _may_lay(card, hand, reachable, easy | runs):
            if locked < 0:
                locked = _locked(hand, a, b, c, d, ra | rb | rc | rd)
            if not locked or _may_lay(card, hand & ~locked, reachable, easy | runs):
                continue
        partner = RANK_MASK[card % 13 + 1] & hand & ~low
        if not partner:
            return False
        if lonely < 0:
            lonely = _lonely(hand, easy, a, b, c, d)
        if lonely and (lonely & (lonely - 1) or lonely & required):
            return False  # each of them is stuck: see ``_lonely``
        if locked < 0:
            locked = _locked(hand, a, b, c, d, ra | rb | rc | rd)
        if not _may_pair_last(low, partner, hand, required, easy, locked, optional):
            return False
    return True


def _locked(hand: int, a: int, b: int, c: int, d: int, runs: int) -> int:
    """``locked_groups(hand)`` from its suits ``a`` to ``d`` and the ranks of its ``runs`` (its
    suits' ``SUIT_COVER``): ranks held exactly three times, none of them in a run."""
    three = ((a & b & c & ~d) | (a & b & d & ~c) | (a & c & d & ~b)
             | (b & c & d & ~a)) & NOT_JACK_RANK & ~runs
    return three * _SPREAD & hand if three else 0


def _run_cover(hand: int) -> int:
    """The cards of the hand that some new sequence or marriage could use (``cover`` without
    the groups)."""
    s = hand & SEQ_CARDS
    r3 = s & (s >> 1) & (s >> 2)
    qk = hand & (hand >> 1) & _QUEENS
    return r3 | (r3 << 1) | (r3 << 2) | qk | (qk << 1)


def _may_pair_last(
    card: int, partner: int, hand: int, required: int, easy: int, locked: int, optional: bool
) -> bool:
    """Whether every card in hand but one may be laid before ``card`` and its ``partner``
    (bits) are laid as a pair, the last meld: the two stay in hand until then.

    So the other cards must get on the table without them: their new melds and chains are
    those of the hand without the two. A queen or king that makes a marriage with one of the
    two stays covered by it all the while: the priority rule forbids laying it as an
    extension, and its marriage would lay a card of the pair, so only a group can lay it.

    A card that cannot be laid so is the discard after the pair: never a ``required`` card,
    which must be melded. Under compulsory melding it must also be unmeldable: no meld on the
    table may take it, so its suit neighbours laid this turn lie in groups (in a run, or alone
    as a jack, each would take it), and no run grows through them.
    """
    pair = card | partner
    others = hand & ~pair
    covered = cover(others)
    reachable = easy | covered
    anchors = easy | _run_cover(others)
    if pair & _QUEENS:
        married = (pair << 1) & others
    elif pair & _KINGS:
        married = (pair >> 1) & others
    else:
        married = 0
    # A run never grows through a married card, nor through a ``locked`` group (of the whole
    # hand: the pair's cards are of another rank, and may only unlock fewer of them).
    chains = others & ~married & ~locked
    stuck = 0  # the card that could only be the discard after the pair
    rest = others
    while rest:
        bit = rest & -rest
        rest ^= bit
        if bit & married:
            if bit & covered:
                continue
        elif _may_lay(bit.bit_length() - 1, chains, reachable, anchors):
            continue
        if stuck or bit & required:
            return False
        stuck = bit
    if not stuck:
        return True
    # (With three of the rank in ``pair`` one of them may yet leave early, in a run.)
    if pair.bit_count() == 2 and not _may_lay_beside(pair | stuck, others & ~stuck):
        return False
    if optional:
        return True
    grouped = _SUIT_NEIGHBOURS[stuck.bit_length() - 1] & others
    if not grouped:
        return True
    chains &= ~grouped
    anchors &= ~grouped
    rest = others & ~stuck
    while rest:
        bit = rest & -rest
        rest ^= bit
        if bit & married:
            if not bit & covered:
                return False
        elif not _may_lay(bit.bit_length() - 1, chains, reachable, anchors):
            return False
    return True


def _lonely(hand: int, easy: int, a: int, b: int, c: int, d: int) -> int:
    """The cards of ``hand`` (split into its suits ``a`` to ``d``) that no meld can lay this
    turn: no jack, accepted by no table meld (``easy``), and with no card of their rank or suit
    neighbour in hand.

    No new meld holds such a card, no table meld can come to accept it (a meld grows only by
    cards of the hand next to what it holds), and it makes no pair, so ``_may_pair_last`` finds
    each stuck (the cards of a pair are never lonely): two of them, or a required one, settle it
    at once. Most often that is how a pair laid last is ruled out.
    """
    # Ranks held twice or more: each of their cards has one of its rank beside it.
    paired = ((a & (b | c | d)) | (b & (c | d)) | (c & d)) * _SPREAD
    beside = (hand << 1 & _NOT_ACES) | (hand >> 1 & _NOT_KINGS)
    return hand & ~easy & ~paired & ~beside


def _may_lay_beside(kept: int, others: int) -> bool:
    """Whether each of ``others`` may be laid while the ``kept`` cards (the pair and the
    discard) stay in hand to the end: one that makes a new meld with kept cards is covered all
    the while, so the priority rule lets only a new meld of ``others`` lay it."""
    # A new meld of kept cards and one more is a run or a marriage: that card lies within two
    # of a kept card in its suit (a group would need two kept cards of its rank).
    rest = others & (kept << 1 | kept >> 1 | kept << 2 | kept >> 2)
    if rest:
        rest &= ~cover(others)
    while rest:
        bit = rest & -rest
        rest ^= bit
        if cover(kept | bit) & bit:
            return False
    return True


def _may_lay(card: int, hand: int, reachable: int, anchors: int) -> bool:
    """Whether ``card`` is reachable, or joined to an anchor by a chain of its suit's cards in
    hand (see ``may_reach``)."""
    if (1 << card) & reachable:
        return True
    rank = card % 13
    for step in (-1, 1):
        x, r = card + step, rank + step
        while 0 <= r < 13 and hand >> x & 1:
            if (1 << x) & anchors:
                return True
            x += step
            r += step
    return False
