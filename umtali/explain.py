"""Why a move is illegal, in words a player can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.cards import CARDS, JACKS, format_cards, iter_cards
from umtali.i18n import Text
from umtali.melds import PlayKind, classify, cover
from umtali.moves import Move, MoveKind

if TYPE_CHECKING:
    from umtali.hand import HandState


def why_illegal(state: HandState, move: Move) -> Text:
    from umtali.hand import Phase

    kind = move.kind
    if state.phase is Phase.OVER:
        return Text.of("the hand is over")
    if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        if state.phase is Phase.MELD:
            # ``drawn`` records this turn's draw or take (the stock may be empty since, and
            # the first turn of the upcard deal has a draw).
            if state.drawn:
                return Text.of("you have already drawn this turn")
            if state.out >= 0 and not state.stock:
                return Text.of("the stock is empty: this last turn is played without a draw or "
                               "a take")
            if state.turns == 0:
                return Text.of("the first turn of the hand has no draw: meld, then discard")
            return Text.of("you have already drawn this turn")
        return _why_not_draw(state, move)
    if state.phase is Phase.DRAW:
        if state.face_down or not state.discard_pile:
            # Nothing may be taken from under a face-down card: the stock alone.
            return Text.of("draw first: 'draw' from the stock")
        return Text.of("draw first: 'draw' from the stock or 'take' the top discard")
    hand = state.hands[state.turn]
    missing = move.cards & ~hand
    if missing:
        return Text.of("you don't hold {cards}", cards=format_cards(iter_cards(missing)))
    if state.pair_laid:
        return Text.of("after a pair only the discard of your last card may follow")
    if kind is MoveKind.DISCARD:
        return _why_not_discard(state, move, hand)
    if kind is MoveKind.EXTEND:
        return _why_not_extend(state, move, hand)
    return _why_not_meld(state, move, hand)


def _why_not_draw(state: HandState, move: Move) -> Text:
    pile = state.discard_pile
    if move.kind is MoveKind.DRAW:
        return Text.of("the stock is empty")
    if not pile:
        return Text.of("the discard pile is empty")
    if state.face_down:
        return Text.of("the top discard is face down: draw from the stock")
    if len(pile) < 2:
        return Text.of("the discard pile holds only one card: 'take' it")
    return Text.of("you may take {top} and {below} only if you can meld both this turn",
                   top=CARDS[pile[-1]], below=CARDS[pile[-2]])


def _why_not_discard(state: HandState, move: Move, hand: int) -> Text:
    card = move.cards.bit_length() - 1
    if state.must_meld:
        return Text.of("you took two cards: meld {cards} before you discard",
                       cards=format_cards(iter_cards(state.must_meld)))
    if move.face_down and hand.bit_count() > 1:
        return Text.of("only your last card, when you go out, may be discarded face down")
    legal = state.legal_moves()
    melds = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
    if card == state.taken:
        if melds and not any(m.kind is MoveKind.DISCARD for m in legal):
            # "Discard another card" would be refused too: the melds come first.
            return Text.of("you took {card} from the discard pile this turn, and melding is "
                           "compulsory: you can still '{move}'", card=CARDS[card],
                           move=melds[0].text(symbols=True))
        return Text.of("you took {card} from the discard pile this turn: discard another card",
                       card=CARDS[card])
    if melds:
        return Text.of("melding is compulsory: you can still '{move}'",
                       move=melds[0].text(symbols=True))
    return Text.of("that discard is not allowed now")


def _why_not_extend(state: HandState, move: Move, hand: int) -> Text:
    card = move.cards.bit_length() - 1
    index = state.meld_of(move.target)
    if index < 0:
        return Text.of("{card} is not on the table: name a card of the meld to extend",
                       card=CARDS[move.target])
    if not state.melds[index].accepts & move.cards:
        return Text.of("{card} does not extend the meld holding {target}", card=CARDS[card],
                       target=CARDS[move.target])
    if cover(hand) & move.cards:
        return Text.of("{card} can go into a new meld from your hand, so it must go there "
                       "(a multi-card meld comes before an extension)", card=CARDS[card])
    return _why_not_with_taken(state) or Text.of("that extension is not allowed now")


def _why_not_meld(state: HandState, move: Move, hand: int) -> Text:
    kind = classify(move.cards)
    names = format_cards(iter_cards(move.cards))
    if kind is None:
        if move.cards.bit_count() == 1:
            return Text.of("{cards} alone is not a meld: only a jack may be laid alone; "
                           "use 'extend' to lay a card on a meld", cards=names)
        if move.cards & JACKS:
            return Text.of(
                "a new sequence or group never holds a jack: lay jacks alone or as extensions")
        return Text.of("{cards} is not a meld: a sequence is 3+ cards in a row of one suit "
                       "(A to 10), a group 3 or 4 of one rank, a marriage K and Q of one suit",
                       cards=names)
    if kind is PlayKind.PAIR:
        rest = hand & ~move.cards
        stranded = rest & state.must_meld
        if stranded:
            # A card taken with take 2 left in hand: that is the refusal, whatever the card
            # left could do otherwise (nothing may follow a pair but the discard).
            return Text.of("you took two cards: that would leave {cards} impossible to meld "
                           "this turn", cards=format_cards(iter_cards(stranded)))
        if rest.bit_count() > 1:
            return Text.of("a pair may only be your last meld, when it lets you go out")
        left = format_cards(iter_cards(rest))
        return Text.of("a pair may be your last meld only if the card left, {card}, cannot "
                       "be melded", card=left)
    return _why_not_with_taken(state) or Text.of("that meld is not allowed now")


def _why_not_with_taken(state: HandState) -> Text | None:
    if state.must_meld:
        cards = format_cards(iter_cards(state.must_meld))
        return Text.of("you took two cards: that would leave {cards} impossible to meld this "
                       "turn", cards=cards)
    return None
