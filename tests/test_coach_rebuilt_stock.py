"""The coach's lines after the stock is rebuilt from the discard pile: the cards it counts on
may be cards the player saw in the pile, so it never calls them unseen."""

from __future__ import annotations

from tests.helpers import mask, position
from umtali import Move, RuleSet, Session
from umtali.ai.determinize import OpponentModel
from umtali.ai.reasons import reason
from umtali.cards import Card
from umtali.i18n import EN, tr_for


def test_a_card_seen_in_the_pile_before_the_rebuild_is_not_called_unseen() -> None:
    rules = RuleSet.english(optional_melding=True)
    # 6H and 9H lie in the pile, seen by seat 0; every card not named lies there too.
    h = position(hands=("7H 8H KS 2C 4D QD", "3C 5S 9D JC"), discard="6H 9H 10C", turn=0,
                 rest="discard", rules=rules)
    session = Session(rules, 0)
    session.hand = h
    session.apply(Move.parse("discard QD"))
    assert session.hand.reshuffled  # the pile but QD became the stock
    session.apply(Move.parse("draw"))
    session.apply(Move.parse("discard 3C"))
    session.apply(Move.parse("draw"))
    view = session.view(0)
    assert {Card.parse("6H"), Card.parse("9H")} <= set(session.hand.stock)
    why = reason(view, Move.parse("discard KS"))
    assert EN(why) == "keep 7♥ 8♥: 6♥ 9♥ are still in play"
    assert tr_for("ru")(why) == "оставьте 7♥ 8♥: 6♥ 9♥ ещё в игре"


def test_a_card_the_opponent_holds_is_still_in_play() -> None:
    # Seat 0 saw the opponent take 8S: it would meld 7S with 9S, so 7S is not "a card no card
    # still in play would meld", though seat 0 will hardly draw 8S. Every other card lies in
    # the pile.
    rules = RuleSet.english(optional_melding=True)
    h = position(hands=("9S 7S 2C 4D 6H", "8S 3C 5S 9D"), stock="2D 3D", discard="8D",
                 turn=0, rest="discard", rules=rules)
    session = Session(rules, 0)
    session.hand = h
    why = reason(session.view(0), Move.parse("discard 7S"), OpponentModel(known=mask("8S")))
    assert EN(why) == "discard 7♠: it is the card least worth keeping"
