"""Review41: what a refused move tells the player is why the engine refuses it.

Each position is one the engine reaches in play; the refusal is the one a player reads, on
Discord (``Session.apply``'s error, in their language) and in the terminal alike.
"""

from __future__ import annotations

import pytest

from tests.helpers import legal, play, position
from umtali import IllegalMoveError, Move, RuleSet
from umtali.hand import HandState, Phase
from umtali.i18n import tr_for


def refusal(h: HandState, move: str) -> str:
    with pytest.raises(IllegalMoveError) as e:
        h.apply(Move.parse(move))
    return str(e.value.text)


@pytest.mark.parametrize("optional", [False, True])
def test_a_pair_that_strands_a_card_taken_two_says_so(optional: bool) -> None:
    # 5S in hand takes 5D and 5H: both must be melded this turn. The pair 5S 5H would leave
    # 5D, taken with take 2, in hand: that is why it is refused, not that 5D could be melded
    # (nothing on the table takes it, and under optional melding that would not matter).
    h = position(hands=("5S", "3C"), discard="2H 5H 5D", phase=Phase.DRAW,
                 rules=RuleSet.english(optional_melding=optional))
    play(h, "take 2")
    assert legal(h) == {"meld 5S 5H 5D", "meld 5H 5D"}
    for pair, left in (("5S 5H", "5♦"), ("5S 5D", "5♥")):
        said = refusal(h, f"meld {pair}")
        assert "cannot be melded" not in said, said
        assert said == f"you took two cards: that would leave {left} impossible to meld this turn"


def test_a_pair_leaving_a_meldable_card_still_says_so() -> None:
    # No take 2: the card left could go on 8D 9D 10D, the reason as before.
    h = position(hands=("5C 5D 7D", "3S"), table=["1: 8D 9D 10D"])
    assert refusal(h, "meld 5C 5D") == ("a pair may be your last meld only if the card left, "
                                        "7♦, cannot be melded")


def test_draw_first_under_a_face_down_discard_does_not_offer_take() -> None:
    # The last turn after going out face down: 'take' is refused (the card is face down), so
    # "draw first" names the stock alone.
    h = position(hands=("4C 9H 2S", ""), discard="3H KS", stock="6D", turn=0, phase=Phase.DRAW,
                 out=1, rest="discard")
    h.face_down = True
    assert legal(h) == {"draw"}
    assert "face down" in refusal(h, "take")
    said = refusal(h, "discard 4C")
    assert "take" not in said, said
    assert said == "draw first: 'draw' from the stock"
    ru = tr_for("ru")
    with pytest.raises(IllegalMoveError) as e:
        h.apply(Move.parse("meld 4C"))
    assert "take" not in ru(e.value.text)
    # Face up, both ways are offered, as before.
    h.face_down = False
    assert refusal(h, "discard 4C") == "draw first: 'draw' from the stock or 'take' the top discard"


def test_draw_first_with_no_discard_pile_does_not_offer_take() -> None:
    # The English deal's first player melded all eleven cards: the dealer's last turn finds no
    # pile at all, and 'take' is refused as the pile is empty.
    h = position(hands=("4C 9H 2S", ""), stock="6D", turn=0, phase=Phase.DRAW, out=1)
    assert not h.discard_pile and legal(h) == {"draw"}
    assert refusal(h, "take") == "the discard pile is empty"
    assert refusal(h, "meld 4C") == "draw first: 'draw' from the stock"


def test_the_card_taken_under_compulsory_melding_names_the_meld_first() -> None:
    # "Discard another card" was said while every other discard was refused too: the meld
    # 5S 5D 5C comes first (compulsory melding). With optional melding, another card it is.
    h = position(hands=("5S 5C 9H", "3C"), discard="2H 5D", phase=Phase.DRAW)
    play(h, "take")
    assert legal(h) == {"meld 5S 5D 5C"}
    assert refusal(h, "discard 5D") == ("you took 5♦ from the discard pile this turn, and "
                                        "melding is compulsory: you can still 'meld 5♠ 5♦ 5♣'")
    assert refusal(h, "discard 9H") == "melding is compulsory: you can still 'meld 5♠ 5♦ 5♣'"
    h = position(hands=("5S 5C 9H", "3C"), discard="2H 5D", phase=Phase.DRAW,
                 rules=RuleSet.english(optional_melding=True))
    play(h, "take")
    assert refusal(h, "discard 5D") == ("you took 5♦ from the discard pile this turn: discard "
                                        "another card")
