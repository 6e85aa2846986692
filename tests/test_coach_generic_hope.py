"""A discard line judged over many draws or guesses ("rather than A♣: played out over many
guesses...") named no card but the two; now it also says what the card kept waits for in the
hand, when any card still in play would meld it there, as the plainer lines do."""

from __future__ import annotations

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai import lookahead
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import of_view
from umtali.ai.reasons import reason
from umtali.cards import Card, mask_of
from umtali.i18n import EN, tr_for
from umtali.moves import MoveKind
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


def test_the_look_ahead_line_names_the_draws_it_counts_most_on() -> None:
    """With nothing the card kept waits for, the look ahead's line names the draws after
    which its choice leaves the better hand ("…, most of all if you draw J♦"): cards still in
    play, never one in the hand or seen."""
    said: list[str] = []
    for seed in range(4):
        session = Session(RuleSet.english(), seed)
        players = (NormalPlayer(), NormalPlayer())
        while not session.over and len(said) < 3:
            seat = session.to_act
            view = session.view(seat)
            usual = players[seat].choose(view)
            if usual.kind is MoveKind.DISCARD:
                ahead = lookahead.choose_discard(of_view(view), view.legal_moves)
                why = reason(view, ahead)
                text = EN(why) if ahead != usual else ""
                if "most of all if you draw" in text:
                    named = text.split("most of all if you draw ")[1].removeprefix("one of ")
                    cards = [Card.parse(c) for c in named.split()]
                    seen = mask_of(view.hand) | mask_of(c for c in view.discard_pile if c)
                    assert cards and all(not seen >> c & 1 for c in cards), text
                    assert tr_for("ru")(why).count("если вы возьмёте") == 1
                    said.append(text)
            session.apply(usual, seat)
    assert len(said) == 3, said
