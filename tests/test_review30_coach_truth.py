"""review30: the coach's lines checked against what the player can see and what the rules let
them do (found by driving seeded sessions and checking each hint mechanically)."""

from __future__ import annotations

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.coach import hint, reason
from umtali.hand import Phase
from umtali.i18n import EN
from umtali.view import PlayerView


def _view(rules: RuleSet | None = None, **kwargs: object) -> PlayerView:
    session = Session(rules or RuleSet.english(), 0)
    session.hand = position(rules=rules, **kwargs)  # type: ignore[arg-type]
    return session.view(0)


def test_a_discards_line_names_no_out_that_needs_the_card_shed() -> None:
    """Shedding 3♠ from 3♠ 4♠ (2♠ and 6♠ in the pile), the line said "keep 4♠: 5♠ is still
    unseen": 5♠ melds 4♠ only with the 3♠ just shed. The outs were counted on the hand before
    the discard (92 such lines in 120 seeded sessions)."""
    view = _view(hands=("3S 4S", "3C 7C 9H"), stock="AD 4D 6H 10C 5S",
                 discard="AS 2S 5D 6D 6S 9C", turn=0)
    why = EN(reason(view, Move.parse("discard 3S")))
    assert "5♠" not in why, why
    assert why == "discard 3♠: it is the card least worth keeping"


def test_the_top_discard_that_pairs_out_is_not_called_unmeldable() -> None:
    """5♠ in hand, 5♥ on the pile: taken, the pair 5♠ 5♥ goes out at once. The draw's line
    said "5♥ on the pile cannot be melded now", and the take's that 5♥ would be "kept in your
    hand": the pair laid to go out was left out."""
    for rules, hand in ((RuleSet.english(optional_melding=True), "5S"),
                        (RuleSet.english(), "5S 9C")):
        view = _view(rules, hands=(hand, "3C 7S 9H"), stock="AD 4D 6H 10C",
                     discard="QS 5H", turn=0, phase=Phase.DRAW)
        assert Move.parse("take") in view.legal_moves
        draw = EN(reason(view, Move.parse("draw")))
        assert "cannot be melded" not in draw, draw
        take = EN(reason(view, Move.parse("take")))
        assert take == "take 5♥: it can be melded at once", take
        assert hint(view).move == Move.parse("take")
