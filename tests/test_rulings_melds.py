"""Rulings on cards and melds (docs/RULES.md, "Cards" and "Melds"): one test or more each."""

from __future__ import annotations

import pytest

from tests.helpers import legal, mask, play, position
from umtali import IllegalMoveError, Move, RuleSet
from umtali.cards import CARDS, POINTS
from umtali.events import Extended, Melded
from umtali.melds import PlayKind, Shape, classify


def test_ace_is_low_only_a23_is_a_sequence() -> None:
    assert classify(mask("AS 2S 3S")) is PlayKind.SEQUENCE


@pytest.mark.parametrize("text", ["QS KS AS", "KS AS 2S", "QH KH AH 2H"])
def test_ace_is_low_only_nothing_wraps(text: str) -> None:
    assert classify(mask(text)) is None


def test_ace_is_low_only_ace_does_not_extend_a_king() -> None:
    h = position(hands=("AD 5C", "2C"), table=["1: JD", "1: QD > JD", "1: KD > QD"])
    assert "extend AD KD" not in legal(h)
    assert not h.melds[0].accepts & mask("AD")


def test_points_court_cards_and_tens_five_others_one() -> None:
    by_rank = {c.rank: POINTS[c] for c in CARDS}
    assert by_rank == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1,
                       10: 5, 11: 5, 12: 5, 13: 5}
    assert sum(POINTS) == 116


def test_points_marriage_king_and_queen_score_double() -> None:
    h = position(hands=("KH QH 2C 9S", "3D"))
    events = play(h, "meld QH KH")
    assert events == [Melded(0, PlayKind.MARRIAGE, (CARDS[mask_card("QH")],
                                                     CARDS[mask_card("KH")]), 20)]
    assert h.points[0] == 20


def mask_card(text: str) -> int:
    return mask(text).bit_length() - 1


def test_sequence_three_or_more_of_one_suit_in_a_row() -> None:
    assert classify(mask("8D 9D 10D")) is PlayKind.SEQUENCE
    assert classify(mask("2C 3C 4C 5C 6C 7C")) is PlayKind.SEQUENCE
    assert classify(mask("8D 9D")) is None
    assert classify(mask("8D 9D 10H")) is None
    assert classify(mask("7D 9D 10D")) is None


@pytest.mark.parametrize("text", ["9D 10D JD", "10D JD QD", "JD QD KD", "8D 9D 10D JD"])
def test_new_sequence_never_holds_a_jack(text: str) -> None:
    assert classify(mask(text)) is None
    h = position(hands=(text + " 2C", "3S"))
    assert f"meld {text}" not in legal(h)
    with pytest.raises(IllegalMoveError, match="jack"):
        h.apply(Move.parse(f"meld {text}"))


def test_group_three_or_four_of_a_rank() -> None:
    assert classify(mask("7S 7H 7D")) is PlayKind.GROUP
    assert classify(mask("KS KH KD KC")) is PlayKind.GROUP
    h = position(hands=("7S 7H 7D 7C 2C", "3S"))
    assert {"meld 7S 7H 7D", "meld 7S 7H 7C", "meld 7S 7D 7C", "meld 7H 7D 7C",
            "meld 7S 7H 7D 7C"} <= legal(h)


def test_group_never_of_jacks() -> None:
    assert classify(mask("JS JH JD")) is None
    h = position(hands=("JS JH JD 2C", "3S"))
    assert "meld JS JH JD" not in legal(h)
    assert {"meld JS", "meld JH", "meld JD"} <= legal(h)


def test_marriage_king_and_queen_of_one_suit() -> None:
    assert classify(mask("KS QS")) is PlayKind.MARRIAGE
    assert classify(mask("KS QH")) is None


def test_marriage_extends_like_a_sequence_only_by_the_jack_below() -> None:
    h = position(hands=("JS 10S 5C", "3D"), table=["1: QS KS"])
    assert h.melds[0].accepts == mask("JS")
    play(h, "extend JS QS")
    assert h.melds[0].accepts == mask("10S")
    play(h, "extend 10S JS")
    assert h.melds[0].accepts == mask("9S")
    assert h.points == [7 + 5 + 5 - 7, 20]  # the extensions score 5 each for seat 0


def test_lone_jack_is_always_legal() -> None:
    h = position(hands=("JC 2S 3S 4S", "3D"))
    assert "meld JC" in legal(h)


def test_lone_jack_becomes_a_sequence_by_a_ten_or_queen() -> None:
    h = position(hands=("QC 9H 2S", "3D"), table=["1: JC"])
    play(h, "extend QC JC")
    assert h.melds[0].shape is Shape.RUN
    # Now a sequence: 10 or K of clubs extend it, another jack does not.
    assert h.melds[0].accepts == mask("10C KC")


def test_lone_jack_becomes_a_group_by_another_jack_never_both() -> None:
    h = position(hands=("JH 2S 9D", "3D"), table=["1: JC"])
    play(h, "extend JH JC")
    assert h.melds[0].shape is Shape.SET
    assert h.melds[0].accepts == mask("JS JD")  # up to four jacks, but no 10 or Q
    h2 = position(hands=("JH JS JD 2S 9D", "3D"), table=["1: JC"])
    play(h2, "extend JH JC", "extend JS JC", "extend JD JC")
    assert h2.melds[0].cards == mask("JS JH JD JC")
    assert h2.melds[0].accepts == 0


def test_extension_on_own_or_opponents_meld_scores_for_whoever_lays_it() -> None:
    h = position(hands=("7D 6C 2S", "3H"), table=["1: 8D 9D 10D", "0: 7C 8C 9C"])
    before = list(h.points)
    events = play(h, "extend 7D 8D")
    assert events == [Extended(0, CARDS[mask_card("7D")], CARDS[mask_card("8D")], 1)]
    play(h, "extend 6C 7C")
    assert h.points == [before[0] + 2, before[1]]
    # The cards stay on the side of the player who laid them.
    assert [(p.player, p.kind) for p in h.plays[-2:]] == [(0, PlayKind.EXTENSION)] * 2


def test_extension_names_any_card_of_the_meld_it_extends() -> None:
    h = position(hands=("7D 2S 4H", "3H"), table=["1: 8D 9D 10D"])
    assert h.is_legal(Move.parse("extend 7D 10D"))
    events = play(h, "extend 7D 9D")
    assert isinstance(events[0], Extended) and events[0].target == CARDS[mask_card("8D")]


def test_extensions_chain_by_either_player() -> None:
    h = position(hands=("6D 2S 4H", "3H"), table=["1: 8D 9D 10D", "1: 7D > 8D"])
    assert "extend 6D 7D" in legal(h)
    play(h, "extend 6D 7D")
    assert h.melds[0].cards == mask("6D 7D 8D 9D 10D")


def test_sequence_grows_through_the_court_cards() -> None:
    h = position(hands=("JD QD 2S", "KD 3H"), table=["1: 8D 9D 10D"])
    # The jack may extend the sequence; then the queen and king follow it.
    play(h, "extend JD 10D", "extend QD JD", "discard 2S", "draw", "extend KD QD")
    assert h.melds[0].cards == mask("8D 9D 10D JD QD KD")
    assert h.melds[0].accepts == mask("7D")


def test_sequence_never_below_ace() -> None:
    h = position(hands=("4S 2H", "3H"), table=["1: AS 2S 3S"])
    assert h.melds[0].accepts == mask("4S")


def test_group_of_three_takes_the_fourth() -> None:
    h = position(hands=("5C 2H 9D", "3H"), table=["1: 5S 5H 5D"])
    assert "extend 5C 5S" in legal(h)
    play(h, "extend 5C 5S")
    assert h.melds[0].accepts == 0


def test_pair_takes_no_extension() -> None:
    h = position(hands=("5C 2H 9D", "3H"), table=["1: 5S 5H"])
    assert h.melds[0].accepts == 0
    assert not any(m.startswith("extend") for m in legal(h))


def test_priority_multi_card_meld_before_extension() -> None:
    # 7D could extend the sequence, but 7D 7S 7H make a new group: the group comes first.
    h = position(hands=("7D 7S 7H 2C", "3H"), table=["1: 8D 9D 10D"])
    assert "extend 7D 8D" not in legal(h)
    with pytest.raises(IllegalMoveError, match="new meld"):
        h.apply(Move.parse("extend 7D 8D"))
    assert "meld 7S 7H 7D" in legal(h)


def test_priority_marriage_before_extension() -> None:
    h = position(hands=("QH KH 2C", "3S"), table=["1: JH"])
    assert "extend QH JH" not in legal(h)
    assert "meld QH KH" in legal(h)


def test_priority_pairs_do_not_count() -> None:
    # 7D and 7S are a pair, but a pair is no reason to hold back an extension.
    h = position(hands=("7D 7S 2C", "3H"), table=["1: 8D 9D 10D"])
    assert "extend 7D 8D" in legal(h)


def test_priority_judged_move_by_move() -> None:
    h = position(hands=("4H 5H 6H 7H 2C", "3S"))
    assert "meld 4H 5H 6H" in legal(h)
    play(h, "meld 4H 5H 6H")
    assert "extend 7H 6H" in legal(h)
    play(h, "extend 7H 6H")
    assert h.melds[0].cards == mask("4H 5H 6H 7H")


def test_pair_only_as_last_meld_going_out() -> None:
    h = position(hands=("5C 5D 9S 2H", "3S"))
    assert "meld 5C 5D" not in legal(h)
    with pytest.raises(IllegalMoveError, match="last meld"):
        h.apply(Move.parse("meld 5C 5D"))


def test_pair_when_it_empties_the_hand() -> None:
    h = position(hands=("5C 5D", "3S"))
    assert "meld 5D 5C" in legal(h)
    play(h, "meld 5D 5C")
    assert h.out == 0


def test_pair_then_discard_of_an_unmeldable_last_card() -> None:
    h = position(hands=("5C 5D 9S", "3S"))
    assert "meld 5D 5C" in legal(h)
    play(h, "meld 5D 5C")
    assert legal(h) == {"discard 9S", "discard 9S down"}


def test_pair_not_when_the_last_card_could_be_melded() -> None:
    h = position(hands=("5C 5D 7D", "3S"), table=["1: 8D 9D 10D"])
    assert "meld 5D 5C" not in legal(h)
    with pytest.raises(IllegalMoveError, match="cannot be melded"):
        h.apply(Move.parse("meld 5C 5D"))
    # Lay the extension first; then the pair goes out.
    play(h, "extend 7D 8D", "meld 5C 5D")
    assert h.out == 0


def test_pair_with_a_meldable_last_card_under_optional_melding() -> None:
    h = position(hands=("5C 5D 7D", "3S"), table=["1: 8D 9D 10D"],
                 rules=RuleSet.english(optional_melding=True))
    assert "meld 5D 5C" in legal(h)


def test_nothing_but_the_discard_follows_a_pair() -> None:
    h = position(hands=("5C 5D JS", "3S"), rules=RuleSet.english(optional_melding=True))
    play(h, "meld 5C 5D")
    assert legal(h) == {"discard JS", "discard JS down"}
    with pytest.raises(IllegalMoveError, match="after a pair"):
        h.apply(Move.parse("meld JS"))


def test_pair_never_of_jacks() -> None:
    assert classify(mask("JS JH")) is None
