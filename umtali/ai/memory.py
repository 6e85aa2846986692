"""What a computer seat remembers between its views: the cards the opponent took from the pile,
and how the table stood when its own turn began.

A view shows the discard pile but not who took what from it. Comparing the pile as this seat
left it with the pile at its next turn tells whether the opponent drew from the stock or took
the top one or two cards; a card taken is in the opponent's hand until it shows up on the table
or in the pile again. Memory is only a help: a player created mid-hand simply knows less.
"""

from __future__ import annotations

from typing import NamedTuple

from umtali.ai.determinize import OpponentModel, hidden_cards, opponent_model
from umtali.cards import Card
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView

Pile = tuple[Card | None, ...]


class OpponentTurn(NamedTuple):
    """One turn of the opponent as the pile tells it."""

    #: Cards taken from the pile.
    taken: Pile = ()
    #: The card discarded, or None (went out by melding, or the turn cannot be read).
    discarded: Card | None = None


def read_turn(before: Pile, after: Pile, stock_before: int, stock_after: int) -> OpponentTurn:
    """The opponent's turn between this seat's two turns, from the pile and the stock size
    before and after it."""
    n = len(before)
    if stock_after == stock_before - 1 and after[:n] == before:
        return OpponentTurn((), after[n] if len(after) > n else None)  # drew from the stock
    if stock_after != stock_before:
        return OpponentTurn()  # the stock was rebuilt: nothing safe to conclude
    for k in (1, 2):
        if n < k:
            break
        kept = before[: n - k]
        # The opponent took ``k`` cards, then discarded one, or went out without a discard.
        if after == kept:
            return OpponentTurn(before[n - k:])
        if len(after) == n - k + 1 and after[:-1] == kept:
            return OpponentTurn(before[n - k:], after[-1])
    return OpponentTurn()


def read_since(
    pile: Pile, stock: int, reshuffled: bool, view: PlayerView
) -> tuple[OpponentTurn, bool] | None:
    """The opponent's turn since this seat's last one left ``pile`` and ``stock`` (the stock
    rebuilt by then or not: ``reshuffled``), and whether they drew from the stock; None if it
    cannot be read."""
    after = view.discard_pile
    if view.reshuffled == reshuffled:
        return read_turn(pile, after, stock, view.stock_size), view.stock_size == stock - 1
    if not view.reshuffled or not pile:
        return None
    if stock == 0:
        # Rebuilt as the opponent's turn began: all but the top card became the stock.
        rebuilt = len(pile) - 1
        turn = read_turn(pile[-1:], after, rebuilt, view.stock_size)
        return turn, view.stock_size == rebuilt - 1
    if stock == 1 and len(after) == 1:
        # Rebuilt as this turn began: the opponent drew the last stock card, then shed the
        # card now alone on the pile (or went out, leaving this seat's discard on top).
        return OpponentTurn((), None if after[0] == pile[-1] else after[0]), True
    return None


class Memory:
    def __init__(self) -> None:
        self._hand: tuple[int, int] = (-1, -1)
        #: The pile and stock size as this seat's last turn left them, until the next turn.
        self._pile: Pile | None = None
        self._stock = -1
        self._reshuffled = False
        self._turn_start: int | None = None
        self._phantoms: tuple[int, ...] | None = None
        self.known_opponent = 0
        #: The opponent's discards this hand, oldest first (``hard`` reads their hand from them).
        self.opponent_discards: tuple[int, ...] = ()

    def observe(self, view: PlayerView) -> OpponentModel:
        """Read a new view; return what it and the earlier ones tell of the opponent's hand."""
        key = (view.game, view.hand_no)
        new_turn = view.phase == "draw"
        phantoms: tuple[int, ...] | None = None
        if key != self._hand:
            self._hand = key
            self.known_opponent = 0
            self._turn_start = None
            self._phantoms = None
            self.opponent_discards = ()
        elif self._pile is not None:
            new_turn = True
            turn = self._read(self._pile, view)
            if turn is not None:
                for card in turn.taken:
                    if card is not None:
                        self.known_opponent |= 1 << card
                phantoms = () if turn.discarded is None else (int(turn.discarded),)
                if turn.discarded is not None:
                    self.opponent_discards += (int(turn.discarded),)
        if new_turn:
            self._turn_start = len(view.plays)
            self._phantoms = phantoms
        self._pile = None
        self._reshuffled = view.reshuffled
        self.known_opponent &= hidden_cards(view)
        if None in view.discard_pile:
            # A card the opponent laid face down (going out): any card known in their hand
            # may be it, and the hand is then empty.
            self.known_opponent = 0
        model = opponent_model(view, self.known_opponent, self._turn_start, self._phantoms)
        return model._replace(discards=self.opponent_discards)

    def _read(self, pile: Pile, view: PlayerView) -> OpponentTurn | None:
        """The opponent's turn since this seat's last one left ``pile``, or None if it cannot
        be read."""
        read = read_since(pile, self._stock, self._reshuffled, view)
        return None if read is None else read[0]

    def saw(self, view: PlayerView) -> None:
        """Take in a view of the hand this seat saw without acting on it: the deal, when the
        opponent plays first (``resume.dealt_view``). At the seat's first turn the pile then
        tells what the opponent took from it: a Russian deal's upcard, seen by both."""
        self.observe(view)
        self._pile = view.discard_pile
        self._stock = view.stock_size

    def witness(self, view: PlayerView, move: Move) -> None:
        """Take in a decision made earlier as if this seat had just made it (``resume``)."""
        self.observe(view)
        self.note(view, move)

    def note(self, view: PlayerView, move: Move) -> None:
        """Remember the pile as this seat's move leaves it, when the move ends the turn."""
        if move.kind is MoveKind.DISCARD:
            self._pile = (*view.discard_pile, move.card)
            self._stock = view.stock_size
        elif move.kind in (MoveKind.MELD, MoveKind.EXTEND) and len(view.hand) == len(
            move.card_list
        ):
            self._pile = view.discard_pile  # went out by melding every card
            self._stock = view.stock_size
