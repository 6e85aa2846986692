"""A discard line judged over many draws or guesses ("rather than A♣: played out over many
guesses...") named no card but the two; now it also says what the card kept waits for in the
hand, when any card still in play would meld it there, as the plainer lines do."""

from __future__ import annotations

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.normal import NormalPlayer
from umtali.ai.reasons import reason
from umtali.i18n import EN, tr_for
from umtali.view import PlayerView

HAND = "9S KS 2H 7H 4D QD AC 3C 5C 9C KC"
OPPONENT = "8S 8H 6D 6C JS 10S 4S 5S 6S 7S"


def _view(discard: str) -> PlayerView:
    session = Session(RuleSet.english(), 0)
    session.hand = position(hands=(HAND, OPPONENT), stock="2D 3D 5D", discard=discard, turn=0)
    return session.view(0)


def test_the_card_kept_names_what_it_waits_for() -> None:
    view = _view("JH 10H")
    assert NormalPlayer().choose(view) == Move.parse("discard AC")  # the line's "rather than"
    why = reason(view, Move.parse("discard 7H"))
    assert EN(why).startswith("discard 7♥ rather than A♣: ")
    assert EN(why).endswith("; keep A♣ 3♣: 2♣ is still in play"), EN(why)
    assert tr_for("ru")(why).endswith("; оставьте A♣ 3♣: 2♣ ещё в игре")


def test_no_card_named_when_none_in_play_would_meld_it() -> None:
    # 2♣ seen on the pile: nothing still in play melds A♣ from the hand.
    # (A review: the player shed A♣, and the line weighs the two.)
    for discard, named in (("JH 10H", True), ("JH 2C 10H", False)):
        view = _view(discard)
        why = EN(reason(view, Move.parse("discard 7H"), instead=Move.parse("discard AC")))
        assert why.startswith("discard 7♥ rather than A♣: "), why
        assert ("; keep A♣ 3♣: 2♣ is still in play" in why) is named, why
