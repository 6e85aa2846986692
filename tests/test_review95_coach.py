"""review95: the coach's words checked against the position (reviewed hands of ``python -m
umtali play``): a meld's "rather than" names a meld the turn truly gives up, with the whole
turn's points on each side; a card kept for a table meld says how it would play."""

from __future__ import annotations

from tests.helpers import position
from umtali import Move, RuleSet, Session
from umtali.ai.reasons import reason
from umtali.cards import format_cards, iter_cards
from umtali.i18n import EN, tr_for
from umtali.view import PlayerView


def _view(rules: RuleSet | None = None, **kwargs: object) -> PlayerView:
    session = Session(rules or RuleSet.english(), 0)
    session.hand = position(rules=rules, **kwargs)  # type: ignore[arg-type]
    return session.view(0)


def _queens() -> PlayerView:
    """Seed 14, optional melding: Q♥ goes on Q♠ Q♦ Q♣, and 2♠ 3♠ 4♠, 2♦ 3♦ 4♦ go down in the
    same turn; only 4♠ 4♦ 4♣ would take a card from the runs."""
    rules = RuleSet.english(optional_melding=True)
    return _view(rules, hands=("2S 2D 3S 3D 4S 4C 4D 7S 7D AH KS QH",
                               "5C 6C 8H 9H 10H 2H 3H 5D 6D 7H"),
                 table=("1: QS QD QC", "1: JC", "1: 10C > JC"), stock="KD 4H 8C 9D", turn=0)


def test_a_meld_laid_with_the_others_has_no_rather_than() -> None:
    """The hint said "lay Q♥ rather than 2♠ 3♠ 4♠: …, though 2♠ 3♠ 4♠ lays more points this
    turn": all three go down this turn whichever comes first. The greedy plan after Q♥ laid
    4♠ 4♦ 4♣ and stopped (8 points), while Q♥ with both runs lays 11."""
    view = _queens()
    why = EN(reason(view, Move.parse("extend QH QS")))
    assert "rather than" not in why, why
    assert why == "of the melds on offer, a turn starting with Q♥ laid on Q♠ Q♦ Q♣ lays the " \
        "most: 11 points"


def test_a_meld_that_gives_up_a_richer_turn_names_it_with_both_totals() -> None:
    """4♠ 4♦ 4♣ takes 4♠ and 4♦ from the runs: its turn lays 8 points (with Q♥), a turn with
    2♠ 3♠ 4♠ lays 11."""
    view = _queens()
    why = EN(reason(view, Move.parse("meld 4S 4D 4C")))
    assert why.startswith("lay 4♠ 4♦ 4♣ rather than 2♠ 3♠ 4♠:"), why
    assert why.endswith("though a turn with 2♠ 3♠ 4♠ lays 11 points against 8"), why
    assert "11" in tr_for("ru")(reason(view, Move.parse("meld 4S 4D 4C")))


def test_a_jack_laid_on_a_meld_is_weighed_against_the_same_jack_alone() -> None:
    """Hint ``extend JH JC``, said "rather than 5♠ 5♥ 5♣", which goes down in either turn. What
    the extension gives up is J♥ laid alone, which 10♥ then extends: 13 points against 8."""
    rules = RuleSet.english(optional_melding=True)
    view = _view(rules, hands=("10H 10D 3C 5S 5C 5H 8S 9S AS JH",
                               "2C 6C 8H 9H 2H 3H 5D 6D 7H"),
                 table=("1: JC",), stock="KD 4H 8C 9D", turn=0)
    why = EN(reason(view, Move.parse("extend JH JC")))
    assert "5♠" not in why, why
    assert why.startswith("lay J♥ on J♣ rather than J♥ alone:"), why
    assert why.endswith("though a turn with J♥ alone lays 13 points against 8"), why


def test_separate_compulsory_melds_are_all_laid() -> None:
    """Compulsory melding, melds sharing no card: every one goes down, whichever comes first.
    The line said "of the melds on offer, this one starts the richest turn"."""
    view = _view(hands=("2S 3S 4S 7D 7C 7H KH QH 9C 6H", "2C 6C 8H 9H 2H 3H 5D 6D 7S"),
                 stock="KD 4H 8C 9D", turn=0)
    lays = [m for m in view.legal_moves if m.kind.name in ("MELD", "EXTEND")]
    assert len(lays) == 3
    for move in lays:
        cards = format_cards(iter_cards(move.cards))
        assert EN(reason(view, move)) == f"{cards} shares no card with your other melds: all " \
            "of them go down this turn, in any order, 26 points in all"


def test_a_card_kept_for_a_table_meld_says_how_it_would_play() -> None:
    """"Keep 8♣: 9♣ is still in play", when 8♣ plays only through 10♣ J♣ Q♣ K♣ on the table:
    9♣ would go on it first, then 8♣. The line read as if 8♣ 9♣ made a meld."""
    view = _view(hands=("8C 2H 5S 9D", "3C 7S 9H"),
                 table=("1: JC", "1: 10C > JC", "1: QC > JC", "1: KC > JC"),
                 stock="AS 4D 6H 9C", discard="2D 3D", turn=0)
    why = EN(reason(view, Move.parse("discard 2H")))
    assert why == "keep 8♣: 9♣, still in play, would go on 10♣ J♣ Q♣ K♣, and 8♣ after it", why
    assert "10♣ J♣ Q♣ K♣" in tr_for("ru")(reason(view, Move.parse("discard 2H")))
    # K♦ waits for Q♦ both to marry it in hand and to follow it on J♦: the marriage is said.
    view = _view(hands=("KD 2H 5S 9C", "3C 7S 9H"), table=("1: JD",),
                 stock="AS 4D 6H 8C", discard="2D 3D", turn=0)
    assert EN(reason(view, Move.parse("discard 2H"))) == "keep K♦: Q♦ is still in play"


def _played(seed: int, moves: int) -> tuple[Session, PlayerView]:
    """Seed ``seed``'s first hand, ``normal`` against ``normal``, after ``moves`` moves."""
    from umtali.ai.normal import NormalPlayer

    session = Session(RuleSet.english(), seed)
    players = (NormalPlayer(), NormalPlayer())
    while len(session.moves) < moves:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)), seat)
    return session, session.view(session.to_act)


def test_the_look_ahead_line_speaks_of_your_hand_on_average() -> None:
    """"whichever card you draw next, the cards left on hand fare better on average": an
    average over the cards drawn is not "whichever", and the cards are in the hand."""
    _, view = _played(0, 6)
    why = EN(reason(view, Move.parse("discard 8C")))
    assert why.startswith("discard 8♣ rather than 6♣: "), why
    assert "whichever" not in why and "on hand" not in why, why
    assert "keeping 6♣ leaves you a stronger hand" in why, why
    ru = tr_for("ru")(reason(view, Move.parse("discard 8C")))
    assert "принесут больше" not in ru, ru


def test_the_last_turns_discard_is_a_discard() -> None:
    """The opponent went out: the line said "shed K♣", where every other line says "discard"."""
    _, view = _played(0, 33)
    why = EN(reason(view, Move.parse("discard KC")))
    assert why == ("discard K♣: the opponent went out, and the points left in your hand now "
                   "score for them"), why


def test_a_meld_that_gives_up_going_out_says_so() -> None:
    """5♦ on 2♦ 3♦ 4♦ leaves 5♠ K♣; the pair 5♠ 5♦ goes out, K♣ discarded. The line weighed
    the two by points ("lays 2 points against 1"): what the pair gives is going out."""
    view = _view(hands=("5S 5D KC", "3C 7S 9H 6D"), table=("1: 2D 3D 4D",),
                 stock="AS 4H 6H 8C", discard="2H 3H", turn=0)
    move = Move.parse("extend 5D 4D")
    assert Move.parse("meld 5S 5D") in view.legal_moves and move in view.legal_moves
    why = EN(reason(view, move))
    assert why.startswith("lay 5♦ on 2♦ 3♦ 4♦ rather than 5♠ 5♦: "), why
    assert why.endswith("though 5♠ 5♦ lets you go out this turn"), why


def test_a_card_kept_for_a_table_meld_names_the_meld_it_would_follow() -> None:
    """4♠ goes on 4♥ 4♦ 4♣ as well as on 5♠ 6♠ 7♠, but only the run then takes 3♠: a group of
    four takes nothing more. The line named the group."""
    view = _view(hands=("3S 2H 10C KD", "3D 7H 6H"), table=("1: 4H 4D 4C", "1: 5S 6S 7S"),
                 stock="AS 4S 6D", discard="2D 3H", turn=0, rest="discard")
    why = EN(reason(view, Move.parse("discard KD")))
    assert why == "keep 3♠: 4♠, still in play, would go on 5♠ 6♠ 7♠, and 3♠ after it", why
