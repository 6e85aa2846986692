"""Why a move is illegal, in words a player can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.cards import CARDS, JACKS, format_cards, iter_cards
from umtali.melds import PlayKind, classify, cover
from umtali.moves import Move, MoveKind

if TYPE_CHECKING:
    from umtali.hand import HandState


def why_illegal(state: HandState, move: Move) -> str:
    from umtali.hand import Phase

    kind = move.kind
    if state.phase is Phase.OVER:
        return "the hand is over"
    if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        if state.phase is Phase.MELD:
            if state.out >= 0 and not state.stock and state.taken < 0:
                return "the stock is empty: this last turn is played without a draw"
            if state.turns == 0 and state.taken < 0:
                return "the first turn of the hand has no draw: meld, then discard"
            return "you have already drawn this turn"
        return _why_not_draw(state, move)
    if state.phase is Phase.DRAW:
        return "draw first: 'draw' from the stock or 'take' the top discard"
    hand = state.hands[state.turn]
    missing = move.cards & ~hand
    if missing:
        return f"you don't hold {format_cards(iter_cards(missing))}"
    if state.pair_laid:
        return "after a pair only the discard of your last card may follow"
    if kind is MoveKind.DISCARD:
        return _why_not_discard(state, move, hand)
    if kind is MoveKind.EXTEND:
        return _why_not_extend(state, move, hand)
    return _why_not_meld(state, move, hand)


def _why_not_draw(state: HandState, move: Move) -> str:
    pile = state.discard_pile
    if move.kind is MoveKind.DRAW:
        return "the stock is empty"
    if not pile:
        return "the discard pile is empty"
    if state.face_down:
        return "the top discard is face down: draw from the stock"
    if len(pile) < 2:
        return "the discard pile holds only one card: 'take' it"
    return (
        f"you may take {CARDS[pile[-1]]} and {CARDS[pile[-2]]} only if you can meld both "
        "this turn"
    )


def _why_not_discard(state: HandState, move: Move, hand: int) -> str:
    card = move.cards.bit_length() - 1
    if state.must_meld:
        return (
            f"you took two cards: meld {format_cards(iter_cards(state.must_meld))} "
            "before you discard"
        )
    if move.face_down and hand.bit_count() > 1:
        return "only your last card, when you go out, may be discarded face down"
    if card == state.taken:
        return f"you took {CARDS[card]} from the discard pile this turn: discard another card"
    melds = [m for m in state.legal_moves() if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
    if melds:
        return f"melding is compulsory: you can still '{melds[0].text(symbols=True)}'"
    return "that discard is not allowed now"


def _why_not_extend(state: HandState, move: Move, hand: int) -> str:
    card = move.cards.bit_length() - 1
    index = state.meld_of(move.target)
    if index < 0:
        return f"{CARDS[move.target]} is not on the table: name a card of the meld to extend"
    if not state.melds[index].accepts & move.cards:
        return f"{CARDS[card]} does not extend the meld holding {CARDS[move.target]}"
    if cover(hand) & move.cards:
        return (
            f"{CARDS[card]} can go into a new meld from your hand, so it must go there "
            "(a multi-card meld comes before an extension)"
        )
    return _why_not_with_taken(state) or "that extension is not allowed now"


def _why_not_meld(state: HandState, move: Move, hand: int) -> str:
    kind = classify(move.cards)
    names = format_cards(iter_cards(move.cards))
    if kind is None:
        if move.cards.bit_count() == 1:
            return (
                f"{names} alone is not a meld: only a jack may be laid alone; "
                "use 'extend' to lay a card on a meld"
            )
        if move.cards & JACKS:
            return "a new sequence or group never holds a jack: lay jacks alone or as extensions"
        return (
            f"{names} is not a meld: a sequence is 3+ cards in a row of one suit (A to 10), "
            "a group 3 or 4 of one rank, a marriage K and Q of one suit"
        )
    if kind is PlayKind.PAIR:
        rest = hand & ~move.cards
        if rest.bit_count() > 1:
            return "a pair may only be your last meld, when it lets you go out"
        left = format_cards(iter_cards(rest))
        return f"a pair may be your last meld only if the card left, {left}, cannot be melded"
    return _why_not_with_taken(state) or "that meld is not allowed now"


def _why_not_with_taken(state: HandState) -> str:
    if state.must_meld:
        cards = format_cards(iter_cards(state.must_meld))
        return f"you took two cards: that would leave {cards} impossible to meld this turn"
    return ""
