"""The words for what happened: going out in the last turn, a second draw, an empty stock that
ends a hand; and the ruling on a pair that leaves a card meldable before it (docs/RULES.md, 9)."""

from __future__ import annotations

import pytest

from tests.helpers import legal, play, position
from umtali import IllegalMoveError, Move, RuleSet
from umtali.events import Event, HandEnd, HandEnded, WentOut
from umtali.hand import HandState, Phase
from umtali.i18n import EN, Tr, tr_for
from umtali.session import Session
from umtali.text import describe

NAMES = ("Ada", "Ben")
RU = tr_for("ru")


def _went_out(events: list[Event]) -> WentOut:
    [event] = [e for e in events if isinstance(e, WentOut)]
    return event


# -- going out in the last turn -------------------------------------------------------------

def test_the_second_player_going_out_ends_the_hand_in_words() -> None:
    h = position(hands=("2C", "3C 3D"), stock="KD")
    first = _went_out(play(h, "discard 2C down"))
    assert describe(first, NAMES) == "Ada goes out! Ben has one last turn."
    second = _went_out(play(h, "draw", "meld 3C 3D", "discard KD down"))
    assert second.ends_hand and h.over and h.reason is HandEnd.WENT_OUT
    assert describe(second, NAMES) == "Ben goes out too: the hand ends."
    assert describe(second.for_seat(0), NAMES, RU) == "Ben тоже выходит: раздача окончена."


def test_the_second_player_melding_out_ends_the_hand_in_words() -> None:
    h = position(hands=("2C", "3C 3D"), stock="3H")
    play(h, "discard 2C")
    second = _went_out(play(h, "draw", "meld 3C 3D 3H"))
    assert not second.discarded and second.ends_hand
    assert describe(second, NAMES) == "Ben goes out too: the hand ends."


# -- why a second draw is refused -----------------------------------------------------------

def _refused(h: HandState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        h.apply(move)
    return str(caught.value)


@pytest.mark.parametrize("again", [Move.draw(), Move.take()])
def test_a_second_draw_on_the_upcard_deals_first_turn_was_a_draw(again: Move) -> None:
    h = HandState.deal(RuleSet.russian(), 1, list(range(52)), "k")
    h.apply(Move.draw())
    assert h.turns == 0  # still the hand's first turn, which has a draw in this variant
    assert _refused(h, again) == "you have already drawn this turn"


@pytest.mark.parametrize("again", [Move.draw(), Move.take()])
def test_a_second_draw_after_the_last_stock_card_in_the_last_turn(again: Move) -> None:
    h = position(hands=("2C", "3C 3D 9H KD"), stock="5S", rest="discard")
    play(h, "discard 2C down", "draw")
    assert not h.stock and h.out == 0
    assert _refused(h, again) == "you have already drawn this turn"


def test_the_first_turn_of_the_eleven_card_deal_has_no_draw_still() -> None:
    h = HandState.deal(RuleSet.english(), 1, list(range(52)), "k")
    assert h.phase is Phase.MELD
    assert _refused(h, Move.draw()) == (
        "the first turn of the hand has no draw: meld, then discard")


def test_a_last_turn_with_no_stock_has_no_draw_still() -> None:
    h = position(hands=("2C", "3C 9H"), rest="discard", reshuffled=True)
    play(h, "discard 2C down")
    assert h.phase is Phase.MELD and not h.drawn
    assert _refused(h, Move.draw()) == (
        "the stock is empty: this last turn is played without a draw or a take")


# -- a hand ended by an empty stock ---------------------------------------------------------

def _ended(h: HandState, *moves: str, tr: Tr = EN) -> str:
    """How the hand ``h``, played in a session, is announced when ``moves`` end it."""
    session = Session(RuleSet.english(), 1)
    session.hand = h
    events = [e for m in moves for e in session.apply_text(m)]
    [ended] = [e for e in events if isinstance(e, HandEnded)]
    assert ended.reason is HandEnd.STOCK_EXHAUSTED
    return describe(ended, NAMES, tr).splitlines()[0]


def _empty_pile() -> HandState:
    h = position(hands=("2C 5D 9S", "3H 6S 10C"), stock="KH", phase=Phase.DRAW,
                 rest="discard", dealer=1)
    h.hands[1] |= sum(1 << c for c in h.discard_pile)  # the pile is empty: nothing to give
    h.discard_pile = []
    return h


def test_a_pile_with_no_card_to_give_is_not_a_second_time() -> None:
    line = _ended(_empty_pile(), "draw", "discard KH")
    assert "second time" not in line
    assert "the stock ran out and the discard pile had no card to make a new one from" in line
    ru = _ended(_empty_pile(), "draw", "discard KH", tr=RU)
    assert "в сбросе не было карт" in ru
    assert "второй раз" not in ru


def _rebuilt_once() -> HandState:
    return position(hands=("2C 5H", "3H 9S"), table=["0: 8D 9D 10D"], discard="KD",
                    rest="discard", reshuffled=True, dealer=1)


def test_a_stock_run_out_again_after_its_rebuild() -> None:
    line = _ended(_rebuilt_once(), "discard 2C")
    # What happened, then what it means for the score (review164: the rule alone was said).
    assert ("the stock ran out a second time (it is rebuilt only once a hand); nobody went out, "
            "so each scores the points they laid, and the cards left in hands score for "
            "nobody.") in line, line
    assert "no card" not in line
    ru = _ended(_rebuilt_once(), "discard 2C", tr=RU)
    assert "второй раз" in ru and "не приносят очков никому" in ru, ru
    assert "в сбросе не было карт" not in ru


# -- a pair that leaves a card meldable before it (a ruling of docs/RULES.md, section 9) -----

@pytest.mark.parametrize(("hand", "pair", "left"), [
    ("5H 5S 5D", "meld 5S 5H", "5D"),  # rather than the group of three
    ("KH QH KS", "meld KS KH", "QH"),  # rather than the marriage
])
def test_a_pair_may_leave_a_card_that_was_meldable_before_it(hand: str, pair: str,
                                                            left: str) -> None:
    h = position(hands=(hand, "3S"))
    assert pair in legal(h)
    play(h, pair)
    assert legal(h) == {f"discard {left}", f"discard {left} down"}
    play(h, f"discard {left} down")
    assert h.out == 0
