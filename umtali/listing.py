"""The legal moves of a position, in the one order they are listed: draw, take, take 2; then new
melds and extensions (in ``meld_options`` order) and the discards, lowest card first.

A listing is a tuple, made once per position and shared by the hand, its session and the view
of the seat to act. The commonest listings are made with as few big-number operations as
possible: a card mask spans 52 bits, so every operation on one makes a new two-digit integer,
while a suit's 13 bits are a small one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from umtali.cards import BITS, JACKS, QUEEN, RANK_MASK
from umtali.melds import (
    GROUPS_BY_CARDS,
    NOT_JACK_RANK,
    RUNS_BY_PATTERN,
    SUIT_COVER,
    PlayKind,
    Shape,
    meldable,
    pairs,
)
from umtali.moves import Move, MoveKind
from umtali.reach import BESIDE, NEIGHBOURS
from umtali.search import (
    Memo,
    after,
    can_meld_all,
    canonical_target,
    may_take_two,
    meld_options,
)

if TYPE_CHECKING:
    from umtali.hand import HandState

Moves = tuple[Move, ...]

_K_MELD, _K_EXTEND, _K_DISCARD = MoveKind.MELD, MoveKind.EXTEND, MoveKind.DISCARD
_PAIR = PlayKind.PAIR
_RUN = Shape.RUN
_DRAW, _TAKE, _TAKE_TWO = Move.draw(), Move.take(), Move.take_two()
#: The listings of the draw phase, every one of them.
_DRAW_ONLY: Final = (_DRAW,)
DRAW_TAKE: Final = (_DRAW, _TAKE)
DRAW_TAKE_TWO: Final = (_DRAW, _TAKE, _TAKE_TWO)
_TAKE_ONLY: Final = (_TAKE,)
_TAKE_TAKE_TWO: Final = (_TAKE, _TAKE_TWO)

_BIT: Final = BITS
_DISCARD: Final = tuple(Move(_K_DISCARD, _BIT[c]) for c in range(52))
_DISCARD_DOWN: Final = tuple(Move(_K_DISCARD, _BIT[c], -1, True) for c in range(52))
_SUIT13: Final = (1 << 13) - 1
_SUIT_OF: Final = tuple(c // 13 for c in range(52))
#: A suit's 13-bit pattern without the card, by card.
_KEEP: Final = tuple(_SUIT13 & ~(1 << (c % 13)) for c in range(52))

#: Meld moves by their cards, and extensions by their card's mask shifted past the target:
#: made the first time they are listed (a few hundred melds, at most 52 * 52 extensions).
_MELD_MOVES: dict[int, Move] = {}
_EXTEND_MOVES: dict[int, Move] = {}


def _suit_discards(suit: int) -> tuple[Moves, ...]:
    """The discards of one suit's cards by the 13-bit pattern of that suit in a hand, for every
    pattern (each the one without its highest card and that card's discard). A tuple, read by
    index in one specialised step for every listing of discards; a dict filled as patterns are
    met cost 2% more a hand of self-play. Made at import: about 25 ms and 3 MB for the four."""
    out: list[Moves] = [()]
    first = suit * 13
    for pattern in range(1, 1 << 13):
        top = pattern.bit_length() - 1
        out.append((*out[pattern & ~(1 << top)], _DISCARD[first + top]))
    return tuple(out)


_S0, _S1, _S2, _S3 = (_suit_discards(s) for s in range(4))


def _meld_move(cards: int) -> Move:
    """The one move that lays these cards as a new meld."""
    move = _MELD_MOVES.get(cards)
    if move is None:
        move = _MELD_MOVES[cards] = Move(_K_MELD, cards)
    return move


def _suit_sequences(suit: int) -> tuple[Moves, ...]:
    """The sequences of one suit by the pattern of its ace to ten in a hand, as moves, in the
    order ``new_melds`` finds them (36 moves a suit; made at import, about 3 ms for the four)."""
    move_of = {r: _meld_move(r << (13 * suit)) for r in RUNS_BY_PATTERN[(1 << 10) - 1]}
    return tuple(tuple(map(move_of.__getitem__, runs)) for runs in RUNS_BY_PATTERN)


_Q0, _Q1, _Q2, _Q3 = (_suit_sequences(s) for s in range(4))
#: The groups of one rank by the cards of that rank in a hand (three or four), as moves.
_GROUP_MOVES: Final = {cards: tuple(map(_meld_move, groups))
                       for cards, groups in GROUPS_BY_CARDS.items()}
#: The marriage of each suit, by suit.
_MARRIAGE_MOVES: Final = tuple(_meld_move(3 << (13 * s + QUEEN - 1)) for s in range(4))
_TEN: Final = (1 << 10) - 1
_HALF: Final = (1 << 26) - 1
#: The jacks laid alone, by the jacks of a hand (lowest first).
_JACK_MOVES: Final = {
    sum(_BIT[13 * s + 10] for s in suits): tuple(_meld_move(_BIT[13 * s + 10]) for s in suits)
    for suits in (tuple(s for s in range(4) if n >> s & 1) for n in range(1, 16))
}
#: A 13-bit rank pattern times this is the pattern in every suit.
_SPREAD: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def discards(hand: int, taken: int) -> Moves:
    """Every discard of ``hand`` but the card ``taken`` from the pile this turn (-1: none); the
    last card of a hand may also go face down."""
    rest = hand & ~_BIT[taken] if taken >= 0 else hand
    found = (*_S0[rest & _SUIT13], *_S1[rest >> 13 & _SUIT13], *_S2[rest >> 26 & _SUIT13],
             *_S3[rest >> 39])
    if len(found) < 2 and not hand & (hand - 1):
        last = hand.bit_length() - 1
        return (_DISCARD[last], _DISCARD_DOWN[last])
    return found


def table_easy(h: HandState) -> int:
    """The jacks and the cards some meld on the table would take as an extension: the cards
    that may be laid whatever else the hand holds. Kept by the hand until a card is laid
    (``turns.lay`` forgets it; a hand whose melds are set from outside is a new one)."""
    easy = h._accepts
    if easy < 0:
        easy = JACKS
        for m in h.melds:
            easy |= m[2]  # ``m.accepts``, read by index (faster)
        h._accepts = easy
    return easy


def draw_moves(h: HandState) -> Moves:
    pile = h.discard_pile
    if not pile or h.face_down:
        return _DRAW_ONLY if h.stock else ()
    if len(pile) < 2:
        return DRAW_TAKE if h.stock else _TAKE_ONLY
    a, b = pile[-1], pile[-2]
    hand = h.hands[h.turn]
    bit_a, bit_b = _BIT[a], _BIT[b]
    melds = h.melds
    easy = h._accepts  # ``table_easy``, written out: read for every listing
    if easy < 0:
        easy = table_easy(h)
    # Most often a taken card has no way at all to the table (no jack, accepted by no meld, no
    # card of its rank or suit neighbour in hand, the other taken card included, which
    # ``BESIDE`` tells without working on the hand's mask): no search.
    if (
        (BESIDE[a * 52 + b] or ((bit_a & easy or NEIGHBOURS[a] & hand)
         and (bit_b & easy or NEIGHBOURS[b] & hand)))
        and may_take_two(hand | bit_a | bit_b, melds, a, b, h.optional, easy)
    ):
        return DRAW_TAKE_TWO if h.stock else _TAKE_TAKE_TWO
    return DRAW_TAKE if h.stock else _TAKE_ONLY


def meld_phase_moves(h: HandState) -> Moves:
    hand = h.hands[h.turn]
    if h.pair_laid:
        return discards(hand, h.taken)
    must = h.must_meld
    if must:
        return _meld_moves(h, hand, table_easy(h), must)
    return free_moves(h, hand, h.taken)


def free_moves(h: HandState, hand: int, taken: int) -> Moves:
    """The meld phase's listing of the player to act, who holds ``hand``, has laid no pair, must
    meld nothing and took ``taken`` from the pile this turn (-1: none). ``HandState._play``
    lists this way as it draws or takes a card."""
    easy = h._accepts  # ``table_easy``, written out: read for every listing
    if easy < 0:
        easy = table_easy(h)
    # The hand's suits (small integers, fast to work on), split by halves: two operations on
    # the whole 52-bit mask rather than four.
    low, high = hand & _HALF, hand >> 26
    a = low & _SUIT13
    b = low >> 13
    c = high & _SUIT13
    d = high >> 13
    sc = SUIT_COVER
    # No jack and nothing the table takes: most often no new meld either (``cover(hand)`` is 0:
    # worked out on the hand's suits) and no last pair (of a hand of two or three cards), so
    # only the discards. (Past the first test the hand holds no jack, which ``easy`` holds: the
    # ranks held three times or twice need no mask for the jacks.)
    if not (
        hand & easy
        or sc[a] or sc[b] or sc[c] or sc[d]
        or (a & b & (c | d)) | (c & d & (a | b))
        or (hand.bit_count() <= 3 and (a & (b | c | d)) | (b & (c | d)) | (c & d))
    ):
        if taken >= 0:
            # The card taken from the pile may not be thrown back.
            suit, keep = _SUIT_OF[taken], _KEEP[taken]
            if suit == 0:
                a &= keep
            elif suit == 1:
                b &= keep
            elif suit == 2:
                c &= keep
            else:
                d &= keep
        found = (*_S0[a], *_S1[b], *_S2[c], *_S3[d])
        try:
            found[1]  # (no exception costs nothing when none is raised)
        except IndexError:
            return discards(hand, taken)  # the last card may go face down
        return found
    return _free_meld_moves(h, hand, easy, a, b, c, d)


def _free_meld_moves(
    h: HandState, hand: int, easy: int, a: int = -1, b: int = 0, c: int = 0, d: int = 0
) -> Moves:
    """``_meld_moves`` when nothing must be melded: every option of ``meld_options`` is listed,
    in its order, each move read from the tables above rather than made from an option. ``a``
    to ``d`` are the hand's suits, when the caller has them."""
    if a < 0:
        low, high = hand & _HALF, hand >> 26
        a, b, c, d = low & _SUIT13, low >> 13, high & _SUIT13, high >> 13
    sc = SUIT_COVER
    ra, rb, rc, rd = sc[a], sc[b], sc[c], sc[d]
    groups = ((a & b & (c | d)) | (c & d & (a | b))) & NOT_JACK_RANK
    # New melds, as ``new_melds`` finds them: sequences by suit, groups by rank, marriages.
    moves = [*_Q0[a & _TEN], *_Q1[b & _TEN], *_Q2[c & _TEN], *_Q3[d & _TEN]]
    if groups:
        g = groups
        while g:
            bit = g & -g
            moves.extend(_GROUP_MOVES[hand & RANK_MASK[bit.bit_length()]])
            g ^= bit
    if (ra | rb | rc | rd) >> 11:  # a suit's cover holds its queen and king: a marriage
        if ra >> 11:
            moves.append(_MARRIAGE_MOVES[0])
        if rb >> 11:
            moves.append(_MARRIAGE_MOVES[1])
        if rc >> 11:
            moves.append(_MARRIAGE_MOVES[2])
        if rd >> 11:
            moves.append(_MARRIAGE_MOVES[3])
    # The jacks, each alone.
    jacks = hand & JACKS
    if jacks:
        moves.extend(_JACK_MOVES[jacks])
    # Extensions: a card some table meld accepts that no new meld may use (a jack too: it may
    # both be laid alone and extend); what new melds use is worked out only then.
    ext = hand & easy
    if ext:
        ext &= ~(ra | rb << 13 | rc << 26 | rd << 39)  # ``cover(hand)``: runs and marriages
        if groups:
            ext &= ~(groups * _SPREAD & hand)  # and groups
    if ext:
        for m in h.melds:
            hits = m[2] & ext
            while hits:
                bit = hits & -hits
                # ``canonical_target``, written out: the end card a run's card lies next to,
                # else the meld's first card.
                cards = m[1]
                target = (cards & -cards).bit_length() - 1
                if m[0] is _RUN and bit.bit_length() - 1 > target:
                    target = cards.bit_length() - 1
                move = _EXTEND_MOVES.get(bit << 6 | target)
                if move is None:
                    move = _EXTEND_MOVES[bit << 6 | target] = Move(_K_EXTEND, bit, target)
                moves.append(move)
                hits ^= bit
    # Under compulsory melding the turn may end only when nothing but a pair may be laid.
    ends = h.optional or not moves
    if hand.bit_count() < 4:
        # A pair, the last meld of a player going out: under compulsory melding only when the
        # card left to discard cannot be melded.
        for pair in pairs(hand):
            rest = hand & ~pair
            if not rest or h.optional or not meldable(rest, easy):
                moves.append(_meld_move(pair))
    if ends:
        return (*moves, *_suit_discards_of(hand, h.taken, a, b, c, d))
    return tuple(moves)


def _suit_discards_of(hand: int, taken: int, a: int, b: int, c: int, d: int) -> Moves:
    """``discards(hand, taken)`` from the hand's suits ``a`` to ``d`` (as ``free_moves`` lists
    them, written out there: a call costs as much as the rest)."""
    if taken >= 0:
        # The card taken from the pile may not be thrown back.
        suit, keep = _SUIT_OF[taken], _KEEP[taken]
        if suit == 0:
            a &= keep
        elif suit == 1:
            b &= keep
        elif suit == 2:
            c &= keep
        else:
            d &= keep
    found = (*_S0[a], *_S1[b], *_S2[c], *_S3[d])
    try:
        found[1]  # (no exception costs nothing when none is raised)
    except IndexError:
        return discards(hand, taken)  # the last card may go face down
    return found


def _meld_moves(h: HandState, hand: int, easy: int, must: int) -> Moves:
    """The meld phase's listing when some meld may be laid."""
    melds = h.melds
    moves: list[Move] = []
    optional = h.optional
    table = tuple(melds) if must else ()
    memo: Memo = {}
    # Under compulsory melding the turn may end only when no meld but a pair is possible.
    can_end = not must
    for opt in meld_options(hand, melds, optional, easy):
        kind, cards, index = opt
        if kind is _PAIR:
            if must and hand & ~cards & must:
                continue
        else:
            can_end = can_end and optional
            if must:
                h2, m2 = after(hand, table, opt)
                if not can_meld_all(h2, m2, must, optional, memo):
                    continue
        # The same few moves are listed again and again: each is made once.
        if index < 0:
            move = _MELD_MOVES.get(cards)
            if move is None:
                move = _MELD_MOVES[cards] = Move(_K_MELD, cards)
        else:
            target = canonical_target(melds[index], cards.bit_length() - 1)
            move = _EXTEND_MOVES.get(cards << 6 | target)
            if move is None:
                move = _EXTEND_MOVES[cards << 6 | target] = Move(_K_EXTEND, cards, target)
        moves.append(move)
    if can_end:
        return (*moves, *discards(hand, h.taken))
    return tuple(moves)
