"""Melds: what a set of cards forms, the logical melds on the table, and what they accept.

A *play* is what one player laid in one move (a new meld, or one card extending a meld). A
*logical meld* is an original meld together with every extension laid on it, by either player;
it alone decides what may extend it next. Everything here works on bitmasks of cards.
"""

from __future__ import annotations

from enum import Enum
from itertools import combinations
from typing import Final, NamedTuple

from umtali.cards import (
    JACK,
    JACKS,
    KING,
    POINTS,
    QUEEN,
    RANK_MASK,
    SUIT_MASK,
    TEN,
    card_index,
    iter_cards,
)


class PlayKind(Enum):
    """What one move laid on the table."""

    SEQUENCE = "sequence"
    GROUP = "group"
    MARRIAGE = "marriage"
    JACK = "jack"
    PAIR = "pair"
    EXTENSION = "extension"


class Shape(Enum):
    """What a logical meld is now, which decides what extends it."""

    RUN = "run"  # a sequence or a marriage, grown at either end
    SET = "set"  # a group, including a group of jacks
    JACK = "jack"  # a lone jack, not yet extended
    PAIR = "pair"  # takes no extension


# Members read in the search's inner loops, bound once: in Python 3.11 each ``Shape.RUN``
# read is a class attribute lookup that costs more than the test it serves.
_SEQUENCE, _GROUP, _MARRIAGE = PlayKind.SEQUENCE, PlayKind.GROUP, PlayKind.MARRIAGE
_JACK, _PAIR = PlayKind.JACK, PlayKind.PAIR
_RUN, _SET, _JACK_SHAPE, _PAIR_SHAPE = Shape.RUN, Shape.SET, Shape.JACK, Shape.PAIR


class Meld(NamedTuple):
    """A logical meld on the table: its shape, its cards, and the cards that may extend it."""

    shape: Shape
    cards: int
    accepts: int


_LOW3: Final = 0b111
# Bits of ranks A..10 in every suit: the only cards a new sequence may hold.
SEQ_CARDS: Final = sum(((1 << 10) - 1) << (s * 13) for s in range(4))
QUEENS: Final = RANK_MASK[QUEEN]
KINGS: Final = RANK_MASK[KING]


# ``Meld(shape, cards, accepts)`` without the Python-level ``__new__`` of a named tuple: the
# take-two search makes a meld for nearly every play it tries.
_tuple_new = tuple.__new__


def _run_accepts(cards: int) -> int:
    low = (cards & -cards).bit_length() - 1
    high = cards.bit_length() - 1
    acc = 0
    if low % 13 != 0:
        acc |= 1 << (low - 1)
    if high % 13 != 12:
        acc |= 1 << (high + 1)
    return acc


def _jack_accepts(jack: int) -> int:
    return _JACK_ACCEPTS[jack]


def _lone_jack_accepts(jack: int) -> int:
    suit = jack // 13
    return (
        (1 << card_index(TEN, suit)) | (1 << card_index(QUEEN, suit)) | (JACKS & ~(1 << jack))
    )


# What a lone jack accepts, by its index (other cards: 0): the ten and queen of its suit and
# the other jacks.
_JACK_ACCEPTS: Final = tuple(_lone_jack_accepts(c) if (1 << c) & JACKS else 0 for c in range(52))


def new_meld(kind: PlayKind, cards: int) -> Meld:
    """The logical meld that a new meld of ``kind`` starts."""
    if kind is _SEQUENCE or kind is _MARRIAGE:
        return _tuple_new(Meld, (_RUN, cards, _run_accepts(cards)))
    if kind is _GROUP:
        rank = ((cards & -cards).bit_length() - 1) % 13 + 1
        return _tuple_new(Meld, (_SET, cards, RANK_MASK[rank] & ~cards))
    if kind is _JACK:
        return _tuple_new(Meld, (_JACK_SHAPE, cards, _jack_accepts(cards.bit_length() - 1)))
    if kind is _PAIR:
        return _tuple_new(Meld, (_PAIR_SHAPE, cards, 0))
    raise ValueError(f"not a new meld: {kind}")


def rebuilt(shape: Shape, cards: int) -> Meld:
    """A logical meld from its shape and cards: what it accepts follows from them."""
    if shape is _RUN:
        return _tuple_new(Meld, (shape, cards, _run_accepts(cards)))
    if shape is _SET:
        rank = ((cards & -cards).bit_length() - 1) % 13 + 1
        return _tuple_new(Meld, (shape, cards, RANK_MASK[rank] & ~cards))
    if shape is _JACK_SHAPE:
        return _tuple_new(Meld, (shape, cards, _jack_accepts(cards.bit_length() - 1)))
    return _tuple_new(Meld, (shape, cards, 0))


def extended(meld: Meld, card: int) -> Meld:
    """The logical meld after ``card`` extends it (the caller checked ``meld.accepts``)."""
    shape = meld[0]  # fields by index: faster than by name
    cards = meld[1] | (1 << card)
    if shape is _RUN:
        return _tuple_new(Meld, (_RUN, cards, _run_accepts(cards)))
    if shape is _SET:
        return _tuple_new(Meld, (_SET, cards, meld[2] & ~(1 << card)))
    # A lone jack's first extension decides for good: a jack makes a group, 10 or Q a run.
    if (1 << card) & JACKS:
        return _tuple_new(Meld, (_SET, cards, JACKS & ~cards))
    return _tuple_new(Meld, (_RUN, cards, _run_accepts(cards)))


def classify(cards: int) -> PlayKind | None:
    """The kind of new meld these cards form, or None. Pairs are classified whenever legal."""
    n = cards.bit_count()
    if n == 1:
        return _JACK if cards & JACKS else None
    first = (cards & -cards).bit_length() - 1
    rank = first % 13 + 1
    if cards & RANK_MASK[rank] == cards:
        if rank == JACK:
            return None
        if n == 2:
            return _PAIR
        return _GROUP if n <= 4 else None
    if cards & SUIT_MASK[first // 13] != cards:
        return None
    if n == 2:
        return _MARRIAGE if cards & KINGS and cards & QUEENS else None
    run = ((1 << n) - 1) << first
    if cards == run and cards & SEQ_CARDS == cards:
        return _SEQUENCE
    return None


def _sub_runs(bits: int) -> tuple[int, ...]:
    """Every run of three or more consecutive set bits within ``bits``."""
    found = []
    for lo in range(13):
        for hi in range(lo + 2, 13):
            run = ((1 << (hi - lo + 1)) - 1) << lo
            if bits & run == run:
                found.append(run)
    return tuple(found)


# Runs of a suit's A..10 bits, by the 10-bit pattern the hand holds.
RUNS_BY_PATTERN: Final = tuple(_sub_runs(p) for p in range(1 << 10))
# Groups of one rank, by the mask of that rank's cards in the hand (three or four of them).
GROUPS_BY_CARDS: Final[dict[int, tuple[int, ...]]] = {}
for _rank in range(1, 14):
    if _rank == JACK:
        continue
    _four = tuple(iter_cards(RANK_MASK[_rank]))
    for _three in combinations(_four, 3):
        _m = sum(1 << c for c in _three)
        GROUPS_BY_CARDS[_m] = (_m,)
    GROUPS_BY_CARDS[RANK_MASK[_rank]] = (
        *(sum(1 << c for c in t) for t in combinations(_four, 3)),
        RANK_MASK[_rank],
    )

_SUIT13: Final = (1 << 13) - 1
NOT_JACK_RANK: Final = _SUIT13 & ~(1 << (JACK - 1))
_QUEEN_BITS: Final = QUEENS


def _ranks_with_three(hand: int) -> int:
    """A 13-bit mask of the ranks (not jacks) of which the hand holds three or four."""
    a = hand & _SUIT13
    b = (hand >> 13) & _SUIT13
    c = (hand >> 26) & _SUIT13
    d = (hand >> 39) & _SUIT13
    return ((a & b & (c | d)) | (c & d & (a | b))) & NOT_JACK_RANK


def _suit_cover(pattern: int) -> int:
    """The cards of one suit's 13-bit pattern that a new sequence or marriage could use."""
    s = pattern & 0x3FF  # ace to ten: the only cards of a sequence
    r3 = s & (s >> 1) & (s >> 2)
    qk = pattern & (pattern >> 1) & (1 << (QUEEN - 1))
    return r3 | (r3 << 1) | (r3 << 2) | qk | (qk << 1)


# ``_suit_cover`` of every pattern: a hand is split into its four suits (small integers, fast
# to work on) and each is looked up, rather than shifting the 52-bit mask about.
SUIT_COVER: Final = tuple(_suit_cover(p) for p in range(1 << 13))


def cover(hand: int) -> int:
    """The cards of the hand that some new sequence, group or marriage could use.

    The priority rule forbids laying any of these as an extension.
    """
    a = hand & _SUIT13
    b = (hand >> 13) & _SUIT13
    c = (hand >> 26) & _SUIT13
    d = hand >> 39
    sc = SUIT_COVER
    out = sc[a] | sc[b] << 13 | sc[c] << 26 | sc[d] << 39
    # ``_ranks_with_three``, written out: this runs for every position listed or searched.
    g = ((a & b & (c | d)) | (c & d & (a | b))) & NOT_JACK_RANK
    if g:
        out |= (g | (g << 13) | (g << 26) | (g << 39)) & hand
    return out


def locked_groups(hand: int) -> int:
    """The cards of each rank (not jacks) the hand holds exactly three of, when none of the
    three could join a new sequence or marriage.

    Each of the three is covered while the other two are in hand, so the priority rule
    forbids laying it as an extension; its only new meld is the group of all three (the hand
    only shrinks, so no sequence or marriage can come to take one). So the three leave the
    hand together as a group, or in a pair as a player goes out, or not at all: never in a
    run, and no run grows through them.
    """
    a = hand & _SUIT13
    b = (hand >> 13) & _SUIT13
    c = (hand >> 26) & _SUIT13
    d = (hand >> 39) & _SUIT13
    three = ((a & b & c & ~d) | (a & b & d & ~c) | (a & c & d & ~b) | (b & c & d & ~a))
    three &= NOT_JACK_RANK
    if not three:
        return 0
    s = hand & SEQ_CARDS
    r3 = s & (s >> 1) & (s >> 2)
    qk = hand & (hand >> 1) & _QUEEN_BITS
    other = r3 | (r3 << 1) | (r3 << 2) | qk | (qk << 1)
    if other:
        # One of the three that can leave in a sequence or marriage unlocks the other two.
        three &= ~(other | (other >> 13) | (other >> 26) | (other >> 39))
    return (three | (three << 13) | (three << 26) | (three << 39)) & hand


def new_melds(hand: int) -> list[tuple[PlayKind, int]]:
    """Every new sequence, group and marriage the hand can lay now."""
    out: list[tuple[PlayKind, int]] = []
    s = hand & SEQ_CARDS
    if s & (s >> 1) & (s >> 2):
        for suit in range(4):
            pattern = (s >> (suit * 13)) & 0x3FF
            if pattern:
                shift = suit * 13
                out.extend((_SEQUENCE, r << shift) for r in RUNS_BY_PATTERN[pattern])
    g = _ranks_with_three(hand)
    while g:
        low = g & -g
        rank = low.bit_length()
        out.extend((_GROUP, m) for m in GROUPS_BY_CARDS[hand & RANK_MASK[rank]])
        g ^= low
    qk = hand & (hand >> 1) & _QUEEN_BITS
    while qk:
        low = qk & -qk
        out.append((_MARRIAGE, low | (low << 1)))
        qk ^= low
    return out


def pairs(hand: int) -> list[int]:
    """Every pair (two cards of one rank, not jacks) in the hand."""
    a = hand & _SUIT13
    b = (hand >> 13) & _SUIT13
    c = (hand >> 26) & _SUIT13
    d = hand >> 39
    # The ranks held twice or more, lowest first, each read from its table of pairs.
    twice = ((a & (b | c | d)) | (b & (c | d)) | (c & d)) & NOT_JACK_RANK
    out: list[int] = []
    while twice:
        low = twice & -twice
        out.extend(_RANK_PAIRS[hand & RANK_MASK[low.bit_length()]])
        twice ^= low
    return out


#: The pairs of two to four cards of one rank (by their mask), as ``pairs`` lists them.
_RANK_PAIRS: Final = {
    sum(1 << c for c in held): tuple((1 << x) | (1 << y) for x, y in combinations(held, 2))
    for rank in range(1, 14)
    for n in (2, 3, 4)
    for held in combinations(tuple(iter_cards(RANK_MASK[rank])), n)
}


def accepts_of(melds: tuple[Meld, ...]) -> int:
    acc = 0
    for m in melds:
        acc |= m.accepts
    return acc


def meldable(hand: int, table_accepts: int) -> bool:
    """Whether compulsory melding forbids ending the turn: any meld at all can be laid."""
    return bool(hand & (JACKS | table_accepts)) or bool(cover(hand))


def play_points(kind: PlayKind, cards: int) -> int:
    """Points a play scores for the player who laid it: marriage K and Q count double."""
    pts = 0
    while cards:
        low = cards & -cards
        pts += POINTS[low.bit_length() - 1]
        cards ^= low
    return pts * 2 if kind is _MARRIAGE else pts
