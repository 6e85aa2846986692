"""A seat's memory across the turn the stock is rebuilt from the discard pile: what the pile
showed before the rebuild still tells what the opponent took and shed."""

from __future__ import annotations

from tests.helpers import mask, position
from umtali import Move, RuleSet, Session
from umtali.ai.memory import Memory
from umtali.cards import Card


def _after_seat_0_discards(stock: str, rules: RuleSet | None = None,
                           ) -> tuple[Session, Memory]:
    # Every card not named lies in the pile: the stock holds ``stock`` alone.
    rules = rules or RuleSet.english()
    h = position(hands=("2C 5D 9S QH", "3H 6C 8D KS"), stock=stock, discard="AH", turn=0,
                 rest="discard", rules=rules)
    session = Session(rules, 0)
    session.hand = h
    memory = Memory()
    view = session.view(0)
    memory.observe(view)
    move = Move.parse("discard 9S")
    memory.note(view, move)
    session.apply(move)
    return session, memory


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
