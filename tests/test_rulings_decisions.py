"""docs/RULES.md section 9 (where the traditional rules are silent) and the last turn, held
through the engine: what the rules pages and docs tell players is what it plays."""

from __future__ import annotations

from tests.helpers import legal, mask, play, position
from umtali.events import StockReshuffled


def test_a_reshuffle_may_happen_as_the_last_turn_begins() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C"), discard="KD", rest="discard")
    assert not h.stock and not h.reshuffled
    pile = len(h.discard_pile)
    events = play(h, "meld 8D 9D 10D", "discard 2C down")
    # The pile without its top card (face down here) becomes the stock; the draw is the stock's.
    assert StockReshuffled(pile) in events
    assert len(h.stock) == pile and h.face_down
    assert legal(h) == {"draw"}


def test_the_last_turn_is_full_taking_two_included() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 4H 3C 4C 9S"), discard="KS 5H", stock="QC")
    play(h, "meld 8D 9D 10D", "discard 2C")
    assert legal(h) == {"draw", "take", "take 2"}
    play(h, "take 2")
    assert legal(h) == {"meld 2C 3C 4C", "meld 3H 4H 5H"}


def test_a_king_laid_as_an_extension_scores_five() -> None:
    h = position(hands=("KD 2S 3S", "3H"), table=["1: 8D 9D 10D", "1: JD > 10D", "1: QD > JD"])
    before = h.points[0]
    play(h, "extend KD QD")
    assert h.points[0] - before == 5


def test_a_group_of_four_takes_nothing() -> None:
    h = position(hands=("2S", "3H"), table=["1: 5S 5H 5D 5C"])
    assert h.melds[0].accepts == 0


def test_four_lone_jacks_are_four_melds() -> None:
    h = position(hands=("JS JH JD JC 2S", "3H"))
    assert "meld JS JH JD" not in legal(h)
    play(h, "meld JS", "meld JH", "meld JD", "meld JC")
    assert len(h.melds) == 4
    assert all(m.cards.bit_count() == 1 for m in h.melds)


def test_a_jack_may_extend_a_sequence_rather_than_lie_alone() -> None:
    # Priority counts new sequences, groups and marriages: a lone jack is not one of them.
    h = position(hands=("JD 2S 9C", "3H"), table=["1: 8D 9D 10D"])
    assert {"extend JD 10D", "meld JD"} <= legal(h)
    play(h, "extend JD 10D")
    assert h.melds[0].cards == mask("8D 9D 10D JD")
