"""A slow, literal reading of the meld rules, to check the engine's fast move listing against.

It shares no meld logic with the engine: it tries every subset of the hand against the meld
definitions, and works out what each table meld accepts from its cards.
"""

from __future__ import annotations

from itertools import combinations

from umtali.hand import HandState, Phase
from umtali.moves import Move, MoveKind


def _suit(c: int) -> int:
    return c // 13


def _rank(c: int) -> int:
    return c % 13 + 1


def _kind(cards: tuple[int, ...]) -> str | None:
    ranks = sorted(_rank(c) for c in cards)
    suits = {_suit(c) for c in cards}
    n = len(cards)
    if n == 1:
        return "jack" if ranks[0] == 11 else None
    if len(set(ranks)) == 1 and ranks[0] != 11:
        return "pair" if n == 2 else "group" if n <= 4 else None
    if len(suits) != 1:
        return None
    if n == 2:
        return "marriage" if ranks == [12, 13] else None
    consecutive = ranks == list(range(ranks[0], ranks[0] + n))
    return "sequence" if consecutive and ranks[-1] <= 10 else None


def _accepts(meld_cards: list[int], first_kind: str) -> set[int]:
    """What a logical meld accepts, from its cards and what its first play was."""
    ranks = sorted(_rank(c) for c in meld_cards)
    suit = _suit(meld_cards[0])
    if first_kind == "pair":
        return set()
    if first_kind == "jack" and len(meld_cards) == 1:
        return {9 + 13 * suit, 11 + 13 * suit} | {10 + 13 * s for s in range(4)} - set(meld_cards)
    if len(set(ranks)) == 1:  # a group, of jacks too
        return {ranks[0] - 1 + 13 * s for s in range(4)} - set(meld_cards)
    out = set()
    if ranks[0] > 1:
        out.add(ranks[0] - 2 + 13 * suit)
    if ranks[-1] < 13:
        out.add(ranks[-1] + 13 * suit)
    return out


def _table(state: HandState) -> list[tuple[list[int], set[int]]]:
    melds: dict[int, list[int]] = {}
    first: dict[int, str] = {}
    for p in state.plays:
        cards = [c for c in range(52) if p.cards >> c & 1]
        melds.setdefault(p.meld, []).extend(cards)
        first.setdefault(p.meld, p.kind.value)
    return [(cards, _accepts(cards, first[i])) for i, cards in sorted(melds.items())]


def _multi_card_melds(hand: list[int]) -> list[tuple[int, ...]]:
    return [
        s
        for n in range(2, len(hand) + 1)
        for s in combinations(hand, n)
        if _kind(s) in ("sequence", "group", "marriage")
    ]


def _meldable(hand: list[int], table: list[tuple[list[int], set[int]]]) -> bool:
    if any(_rank(c) == 11 for c in hand) or _multi_card_melds(hand):
        return True
    return any(c in acc for c in hand for _, acc in table)


def meld_moves(
    hand: list[int], table: list[tuple[list[int], set[int]]], optional: bool
) -> set[Move]:
    """Melds and extensions by the book (without the take-two constraint)."""
    moves: set[Move] = set()
    multi = _multi_card_melds(hand)
    in_multi = {c for s in multi for c in s}
    for s in multi:
        moves.add(Move.meld(s))
    for c in hand:
        if _rank(c) == 11:
            moves.add(Move.meld([c]))
    for c in hand:
        if c in in_multi:
            continue  # the priority rule
        for cards, acc in table:
            if c in acc:
                # Name the meld by the card the engine names it by: checked via canonical().
                moves.add(Move(MoveKind.EXTEND, 1 << c, cards[0]))
    if len(hand) in (2, 3):
        for s in combinations(hand, 2):
            if _kind(s) != "pair":
                continue
            rest = [c for c in hand if c not in s]
            if not rest or optional or not _meldable(rest, table):
                moves.add(Move.meld(s))
    return moves


def legal_moves(state: HandState) -> set[Move]:
    """The legal moves by the book, extensions named by the engine's canonical target."""
    if state.phase is Phase.OVER:
        return set()
    hand = [c for c in range(52) if state.hands[state.turn] >> c & 1]
    table = _table(state)
    if state.phase is Phase.DRAW:
        out = {Move.draw()} if state.stock else set()
        pile = state.discard_pile
        if pile and not state.face_down:
            out.add(Move.take())
            if len(pile) >= 2 and _can_take_two(state):
                out.add(Move.take_two())
        return out
    if state.pair_laid:
        return _discards(state, hand)
    moves = {state.canonical(m) for m in meld_moves(hand, table, state.optional)}
    if state.must_meld:
        moves = {m for m in moves if _keeps_taken_meldable(state, m)}
        return moves
    if state.optional or not _meldable(hand, table):
        moves |= _discards(state, hand)
    return moves


def _discards(state: HandState, hand: list[int]) -> set[Move]:
    out = set()
    for c in hand:
        if c == state.taken and len(hand) > 1:
            continue
        out.add(Move.discard(c))
        if len(hand) == 1:
            out.add(Move.discard(c, True))
    return out


def _after(state: HandState, move: Move) -> HandState:
    s = state.copy()
    s._play(move)  # the move is legal by the book; no need to validate twice
    return s


def _all_meldable(state: HandState, required: int) -> bool:
    hand_mask = state.hands[state.turn]
    if not hand_mask & required:
        return True
    if state.phase is not Phase.MELD or state.pair_laid:
        return False
    hand = [c for c in range(52) if hand_mask >> c & 1]
    for m in meld_moves(hand, _table(state), state.optional):
        m = state.canonical(m)
        if m.kind is MoveKind.MELD and m.cards.bit_count() == 2 and _kind(
            tuple(c for c in range(52) if m.cards >> c & 1)) == "pair":
            if not hand_mask & ~m.cards & required:
                return True
            continue
        nxt = _after(state, m)
        if nxt.turn != state.turn:
            return not nxt.hands[state.turn] & required
        if _all_meldable(nxt, required):
            return True
    return False


def _can_take_two(state: HandState) -> bool:
    s = state.copy()
    a, b = s.discard_pile[-1], s.discard_pile[-2]
    s.discard_pile = s.discard_pile[:-2]
    s.hands = list(s.hands)
    s.hands[s.turn] |= (1 << a) | (1 << b)
    s.phase = Phase.MELD
    s.must_meld = 0
    return _all_meldable(s, (1 << a) | (1 << b))


def _keeps_taken_meldable(state: HandState, move: Move) -> bool:
    nxt = _after(state, move)
    if nxt.turn != state.turn or nxt.phase is Phase.OVER:
        return not nxt.hands[state.turn] & state.must_meld
    if nxt.pair_laid:
        return not nxt.hands[state.turn] & state.must_meld
    return _all_meldable(nxt, state.must_meld)


def describe(moves: set[Move]) -> list[str]:
    return sorted(str(m) for m in moves)

