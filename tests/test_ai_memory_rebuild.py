"""A seat's memory across the turn the stock is rebuilt from the discard pile: what the pile
showed before the rebuild still tells what the opponent took and shed."""

from __future__ import annotations

from typing import Any

from tests.helpers import mask, position
from umtali import Move, RuleSet, Session
from umtali.ai.guesses import Turn
from umtali.ai.memory import Memory
from umtali.ai.particles import ParticleMemory
from umtali.cards import Card


def _after_seat_0_discards(stock: str, rules: RuleSet | None = None,
                           memory: Memory | None = None) -> tuple[Session, Memory]:
    # Every card not named lies in the pile: the stock holds ``stock`` alone. ``memory``:
    # seat 0's (a ``Memory`` unless given).
    rules = rules or RuleSet.english()
    h = position(hands=("2C 5D 9S QH", "3H 6C 8D KS"), stock=stock, discard="AH", turn=0,
                 rest="discard", rules=rules)
    session = Session(rules, 0)
    session.hand = h
    seen = Memory() if memory is None else memory
    view = session.view(0)
    seen.observe(view)
    move = Move.parse("discard 9S")
    seen.note(view, move)
    session.apply(move)
    return session, seen


def test_a_card_taken_on_the_turn_the_stock_is_rebuilt_is_remembered() -> None:
    # Seat 0 drew the last stock card: the stock is rebuilt as seat 1's turn begins, leaving
    # 9S alone on the pile; seat 1 takes it and sheds 3H.
    session, memory = _after_seat_0_discards("")
    assert session.hand.reshuffled and session.hand.discard_pile == [Card.parse("9S")]
    session.apply(Move.parse("take"))
    session.apply(Move.parse("discard 3H"))
    model = memory.observe(session.view(0))
    assert model.known == mask("9S")
    assert model.discards == (int(Card.parse("3H")),)
    assert int(Card.parse("3H")) in model.phantoms


def test_a_draw_from_the_rebuilt_stock_is_read() -> None:
    # Optional melding: whatever seat 1 draws, it may shed 3H.
    session, memory = _after_seat_0_discards("", RuleSet.english(optional_melding=True))
    session.apply(Move.parse("draw"))
    drawn = session.hand.hands[1] & ~mask("3H 6C 8D KS")
    session.apply(Move.parse("discard 3H"))
    model = memory.observe(session.view(0))
    assert model.known == 0 and model.known & drawn == 0
    assert model.discards == (int(Card.parse("3H")),)


def test_the_opponent_drawing_the_last_stock_card_is_read() -> None:
    # Seat 1 draws the last card, 4S, and sheds 3H: the stock is rebuilt as seat 0's turn
    # begins, leaving 3H alone on the pile.
    session, memory = _after_seat_0_discards("4S")
    session.apply(Move.parse("draw"))
    session.apply(Move.parse("discard 3H"))
    assert session.hand.reshuffled and session.hand.discard_pile == [Card.parse("3H")]
    model = memory.observe(session.view(0))
    assert model.known == 0
    assert model.discards == (int(Card.parse("3H")),)
    assert int(Card.parse("3H")) in model.phantoms


class _Carried(ParticleMemory):
    """The filter, recording the opponent's turns it carries its guesses through."""

    def __init__(self) -> None:
        super().__init__("fix131", count=16)
        self.carried: list[Turn | None] = []

    def _turn(self, *args: Any) -> Turn | None:
        turn = super()._turn(*args)
        self.carried.append(turn)
        return turn


def _filter_after_seat_0_discards(stock: str) -> tuple[Session, _Carried]:
    # Compulsory melding: the filter's guesses are kept only then.
    memory = _Carried()
    return _after_seat_0_discards(stock, memory=memory)[0], memory


def test_the_filter_carries_its_guesses_through_a_take_from_the_rebuilt_pile() -> None:
    session, memory = _filter_after_seat_0_discards("")
    session.apply(Move.parse("take"))
    session.apply(Move.parse("discard 3H"))
    memory.observe(session.view(0))
    turn, = memory.carried
    assert turn is not None
    assert (turn.taken, turn.shed, turn.stock_draw) == (mask("9S"), int(Card.parse("3H")), False)
    assert all(hand >> int(Card.parse("9S")) & 1 for hand in memory.hands)


def test_the_filter_carries_its_guesses_through_a_draw_from_the_rebuilt_stock() -> None:
    session, memory = _filter_after_seat_0_discards("")
    session.apply(Move.parse("draw"))
    shed = Move.parse("discard 3H")
    while shed not in session.hand.legal_moves():
        session.apply(session.hand.legal_moves()[0])  # a meld the card drawn made compulsory
    session.apply(shed)
    memory.observe(session.view(0))
    turn, = memory.carried
    assert turn is not None and turn.stock_draw and not turn.taken
    # 9S, left on the pile, is what they passed; the stock it was rebuilt into is the pool.
    assert turn.passed == int(Card.parse("9S")) and turn.shed == int(Card.parse("3H"))
    assert turn.pool & mask("AH") and not turn.pool & mask("9S 2C")


def test_the_filter_carries_its_guesses_through_the_last_stock_card() -> None:
    # Seat 1 draws the last card, 4S, and sheds 3H; the stock is rebuilt as seat 0's turn
    # begins. When seat 1 shed, the stock was empty and the old pile (AH under 9S) in sight;
    # 4S came from the one-card stock, not from that pile.
    session, memory = _filter_after_seat_0_discards("4S")
    session.apply(Move.parse("draw"))
    session.apply(Move.parse("discard 3H"))
    memory.observe(session.view(0))
    turn, = memory.carried
    assert turn is not None and turn.stock_draw and turn.stock_size == 0
    assert turn.passed == int(Card.parse("9S")) and turn.shed == int(Card.parse("3H"))
    assert turn.pool & mask("4S") and not turn.pool & mask("AH 9S")
    assert turn.seen & mask("AH 9S") == mask("AH 9S")
