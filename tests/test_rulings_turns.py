"""Rulings on the deal, a turn, going out, the last turn and the empty stock (docs/RULES.md)."""

from __future__ import annotations

import pytest

from tests.helpers import cards, legal, mask, of_kind, play, position
from umtali import IllegalMoveError, Move, RuleSet
from umtali.cards import CARDS
from umtali.events import Discarded, HandEnd, NoDraw, StockReshuffled, TookDiscard, WentOut
from umtali.hand import HandState, Phase


def test_deal_eleven_ten_each_one_at_a_time_then_an_eleventh_to_the_non_dealer() -> None:
    deck = list(range(52))
    h = HandState.deal(RuleSet.english(), 0, deck, "k")
    # Non-dealer (seat 1) gets cards 0, 2, 4, ..., 18 and then card 20.
    assert h.hands[1] == sum(1 << c for c in [*range(0, 20, 2), 20])
    assert h.hands[0] == sum(1 << c for c in range(1, 20, 2))
    assert h.discard_pile == []
    assert len(h.stock) == 31 and h.stock[-1] == 21  # next card on top of the stock


def test_deal_eleven_first_turn_has_no_draw() -> None:
    h = HandState.deal(RuleSet.english(), 0, list(range(52)), "k")
    assert h.turn == 1 and h.phase is Phase.MELD
    assert not {"draw", "take"} & legal(h)
    with pytest.raises(IllegalMoveError, match="first turn"):
        h.apply(Move.draw())


def test_deal_upcard_ten_each_and_one_card_turned_up() -> None:
    h = HandState.deal(RuleSet.russian(), 1, list(range(52)), "k")
    assert h.hands[0].bit_count() == 10 and h.hands[1].bit_count() == 10
    assert h.discard_pile == [20]
    assert len(h.stock) == 31


def test_deal_upcard_non_dealer_first_turn_starts_with_a_draw() -> None:
    h = HandState.deal(RuleSet.russian(), 1, list(range(52)), "k")
    assert h.turn == 0 and h.phase is Phase.DRAW
    assert {"draw", "take"} <= legal(h)


def test_draw_from_the_stock_or_the_top_discard_even_if_unmeldable() -> None:
    h = position(hands=("2C 5H 9S", "3D"), discard="KS 8D", phase=Phase.DRAW)
    assert {"draw", "take"} <= legal(h)
    events = play(h, "take")
    assert events == [TookDiscard(0, (CARDS[cards("8D")[0]],))]
    assert h.hands[0] == mask("2C 5H 9S 8D")


def test_take_two_only_if_both_are_melded_this_turn() -> None:
    # 8D meld with 9D 10D, but KS goes nowhere: no take 2.
    h = position(hands=("9D 10D 2C", "3H"), discard="KS 8D", phase=Phase.DRAW)
    assert "take 2" not in legal(h)
    with pytest.raises(IllegalMoveError, match="meld both"):
        h.apply(Move.take_two())
    # With KH in hand, KS makes a pair... which is not enough while it does not go out.
    h = position(hands=("9D 10D 2C 4S KH", "3H"), discard="KS 8D", phase=Phase.DRAW)
    assert "take 2" not in legal(h)
    # ...but it is when the pair is the last meld and 2C the going-out discard.
    h = position(hands=("9D 10D 2C KH", "3H"), discard="KS 8D", phase=Phase.DRAW)
    assert "take 2" in legal(h)
    # With KH and KC, KS makes a group: take 2 is legal.
    h = position(hands=("9D 10D 2C KH KC", "3H"), discard="KS 8D", phase=Phase.DRAW)
    assert "take 2" in legal(h)


def test_take_two_both_in_the_same_meld() -> None:
    h = position(hands=("10D 2C 5S", "3H"), discard="9D 8D", phase=Phase.DRAW)
    assert "take 2" in legal(h)
    play(h, "take 2")
    assert legal(h) == {"meld 8D 9D 10D"}


def test_take_two_cannot_keep_either_card() -> None:
    h = position(hands=("9D 10D KH KC 2C", "3H"), discard="KS 8D", phase=Phase.DRAW)
    play(h, "take 2")
    assert not any(m.startswith("discard") for m in legal(h))
    with pytest.raises(IllegalMoveError, match="took two"):
        h.apply(Move.parse("discard 2C"))
    play(h, "meld 8D 9D 10D")
    assert not any(m.startswith("discard") for m in legal(h))
    play(h, "meld KS KH KC")
    assert "discard 2C" in legal(h)


def test_take_two_only_melds_that_keep_both_meldable() -> None:
    # 7D 8D taken; 7D can go in 7S 7H 7D or the run 6D 7D 8D; 8D only in the run.
    h = position(hands=("6D 7S 7H 2C", "3H"), discard="7D 8D", phase=Phase.DRAW)
    assert "take 2" in legal(h)
    play(h, "take 2")
    moves = legal(h)
    assert "meld 6D 7D 8D" in moves
    # Putting 7D in the group would strand 8D.
    assert "meld 7S 7H 7D" not in moves
    with pytest.raises(IllegalMoveError, match="impossible to meld"):
        h.apply(Move.parse("meld 7S 7H 7D"))


def test_take_two_through_a_chain_of_extensions() -> None:
    # 6D needs 7D laid first on 8D-9D-10D; both taken cards are then melded.
    h = position(hands=("2C 5S", "3H"), table=["1: 8D 9D 10D"], discard="6D 7D",
                 phase=Phase.DRAW)
    assert "take 2" in legal(h)
    play(h, "take 2")
    assert legal(h) == {"extend 7D 8D"}


def test_compulsory_melding_turn_ends_only_when_nothing_can_be_melded() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H"))
    assert legal(h) == {"meld 8D 9D 10D"}
    with pytest.raises(IllegalMoveError, match="compulsory"):
        h.apply(Move.parse("discard 2C"))


def test_compulsory_melding_extension_counts_as_meldable() -> None:
    h = position(hands=("7D 2C", "3H"), table=["1: 8D 9D 10D"])
    assert legal(h) == {"extend 7D 8D"}


def test_compulsory_melding_a_jack_is_never_kept_nor_discarded() -> None:
    h = position(hands=("JC 2C 5H", "3H"))
    assert legal(h) == {"meld JC"}


def test_compulsory_melding_pair_is_never_compulsory() -> None:
    h = position(hands=("5C 5D", "3H"))
    assert {"meld 5D 5C", "discard 5C", "discard 5D"} <= legal(h)


def test_compulsory_melding_choice_of_meld_is_the_players() -> None:
    h = position(hands=("KH QH KS KD 2C", "3H"))
    assert {"meld QH KH", "meld KS KH KD"} <= legal(h)


def test_optional_melding_house_rule_may_keep_meldable_cards() -> None:
    h = position(hands=("8D 9D 10D 2C JC", "3H"), rules=RuleSet.english(optional_melding=True))
    assert {"meld 8D 9D 10D", "meld JC", "discard 2C", "discard JC", "discard 9D"} <= legal(h)


def test_discard_face_up_ends_the_turn() -> None:
    h = position(hands=("2C 5H", "3H 9S"))
    events = play(h, "discard 2C")
    assert events == [Discarded(0, CARDS[cards("2C")[0]], False)]
    assert h.turn == 1 and h.phase is Phase.DRAW and not h.face_down


def test_discard_not_the_card_just_taken() -> None:
    h = position(hands=("2C 5H", "3H"), discard="9S", phase=Phase.DRAW)
    play(h, "take")
    assert "discard 9S" not in legal(h)
    with pytest.raises(IllegalMoveError, match="took 9♠"):
        h.apply(Move.parse("discard 9S"))


def test_discard_the_card_just_taken_when_it_is_the_last_card() -> None:
    h = position(hands=("5H 6H", "3H 8S"), discard="2C 9S", phase=Phase.DRAW,
                 table=["1: 7H 8H 9H"])
    play(h, "take", "extend 6H 7H", "extend 5H 6H")
    assert legal(h) == {"discard 9S", "discard 9S down"}


def test_discard_face_down_only_for_the_last_card() -> None:
    h = position(hands=("2C 5H", "3H"))
    assert "discard 2C down" not in legal(h)
    with pytest.raises(IllegalMoveError, match="face down"):
        h.apply(Move.parse("discard 2C down"))


def test_going_out_by_melding_every_card_has_no_discard() -> None:
    h = position(hands=("8D 9D 10D", "3H 5C"))
    events = play(h, "meld 8D 9D 10D")
    assert events[-1] == WentOut(0, False)
    assert h.out == 0 and h.turn == 1 and h.phase is Phase.DRAW


def test_going_out_with_a_discard_face_up_or_face_down() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C"))
    play(h, "meld 8D 9D 10D")
    assert legal(h) == {"discard 2C", "discard 2C down"}
    events = play(h, "discard 2C down")
    assert events == [Discarded(0, CARDS[cards("2C")[0]], True), WentOut(0, True)]
    assert h.face_down
    assert events[0].for_seat(1) == Discarded(0, None, True)


def test_last_turn_cannot_take_a_face_down_discard() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C"))
    play(h, "meld 8D 9D 10D", "discard 2C down")
    assert legal(h) == {"draw"}
    with pytest.raises(IllegalMoveError, match="face down"):
        h.apply(Move.take())


def test_last_turn_may_take_a_face_up_discard() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C"))
    play(h, "meld 8D 9D 10D", "discard 2C")
    assert {"draw", "take"} <= legal(h)


def test_last_turn_is_a_full_turn_then_the_hand_ends() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C 6C"), stock="9S")
    play(h, "meld 8D 9D 10D", "discard 2C down", "draw")
    assert h.phase is Phase.MELD
    play(h, "discard 9S")
    assert h.over and h.reason is HandEnd.WENT_OUT


def test_last_turn_leftovers_score_for_the_player_who_went_out() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C KC"), stock="9S")
    play(h, "meld 8D 9D 10D", "discard 2C down", "draw", "discard 9S")
    # 3H 5C KC left: 1 + 1 + 5.
    assert h.leftover_points() == 7
    assert h.scores() == (7 + 7, 0)


def test_last_turn_pair_may_be_the_last_meld() -> None:
    h = position(hands=("8D 9D 10D", "5S 5C"), stock="9H")
    play(h, "meld 8D 9D 10D", "draw")
    assert "meld 5S 5C" in legal(h)


def test_last_turn_opponent_also_goes_out_nothing_is_carried_over() -> None:
    h = position(hands=("8D 9D 10D", "5S 5C"), stock="9H")
    play(h, "meld 8D 9D 10D", "draw", "meld 5S 5C", "discard 9H down")
    assert h.over and h.reason is HandEnd.WENT_OUT
    assert h.leftover_points() == 0
    assert h.scores() == (7, 2)


def test_empty_stock_first_time_reshuffles_the_pile_but_its_top() -> None:
    h = position(hands=("2C 5H", "3H 9S"), discard="KD", rest="discard")
    assert not h.stock
    pile = list(h.discard_pile)
    events = play(h, "discard 2C")
    assert events[-1] == StockReshuffled(len(pile))
    assert h.discard_pile == [cards("2C")[0]]
    assert sorted(h.stock) == sorted(pile)
    assert h.reshuffled and h.phase is Phase.DRAW
    assert "take 2" not in legal(h)


def test_empty_stock_second_time_ends_the_hand_with_no_one_out() -> None:
    h = position(hands=("2C 5H", "3H 9S"), table=["0: 8D 9D 10D"], discard="KD",
                 rest="discard", reshuffled=True)
    play(h, "discard 2C")
    assert h.over and h.reason is HandEnd.STOCK_EXHAUSTED
    assert h.scores() == (7, 0)  # melded points stand, leftovers score for nobody


def test_empty_stock_pile_with_no_card_to_give_ends_the_hand() -> None:
    # No stock and no discard pile: every other card is in seat 1's hand.
    h = position(hands=("2C 5H", "3H 9S"), rest="discard")
    h.hands[1] |= sum(1 << c for c in h.discard_pile)
    h.discard_pile = []
    play(h, "discard 2C")
    assert h.over and h.reason is HandEnd.STOCK_EXHAUSTED


def test_empty_stock_last_turn_is_played_without_a_draw() -> None:
    h = position(hands=("8D 9D 10D 2C", "3H 5C"), discard="KD", rest="discard",
                 reshuffled=True)
    events = play(h, "meld 8D 9D 10D", "discard 2C")
    assert events[-1] == NoDraw(1)
    assert h.phase is Phase.MELD and not h.over
    assert not {"draw", "take"} & legal(h)
    play(h, "discard 3H")
    assert h.over and h.reason is HandEnd.WENT_OUT
    assert h.leftover_points() == 1  # 5C still scores for the player who went out


def test_no_progress_twelve_quiet_turns_end_the_hand() -> None:
    # Both players take the top discard and throw another card back: nothing changes.
    h = position(hands=("2C 5H 9S", "3H 6D 10S"), discard="KD", phase=Phase.DRAW,
                 table=["0: 8D 9D 10D"])
    for turn in range(12):
        assert not h.over, turn
        play(h, "take")
        h.apply(next(m for m in h.legal_moves() if m.kind.value == "discard"))
    assert h.over and h.reason is HandEnd.STALLED
    assert h.scores() == (7, 0)


def test_no_progress_a_stock_draw_resets_the_count() -> None:
    h = position(hands=("2C 5H 9S", "3H 6D 10S"), discard="KD", phase=Phase.DRAW)
    for _ in range(11):
        play(h, "take")
        h.apply(next(m for m in h.legal_moves() if m.kind.value == "discard"))
    assert h.quiet_turns == 11
    play(h, "draw")
    h.apply(next(m for m in h.legal_moves() if m.kind.value == "discard"))
    assert h.quiet_turns == 0 and not h.over


def test_moves_out_of_phase_are_refused_with_the_state_unchanged() -> None:
    h = position(hands=("2C 5H", "3H"), phase=Phase.DRAW)
    with pytest.raises(IllegalMoveError, match="draw first"):
        h.apply(Move.parse("discard 2C"))
    play(h, "draw")
    with pytest.raises(IllegalMoveError, match="already drawn"):
        h.apply(Move.draw())
    with pytest.raises(IllegalMoveError, match="don't hold"):
        h.apply(Move.parse("discard KS"))


def test_events_report_taking_two_in_order() -> None:
    h = position(hands=("10D 2C 5S", "3H"), discard="9D 8D", phase=Phase.DRAW)
    events = play(h, "take 2")
    assert of_kind(events, TookDiscard) == [
        TookDiscard(0, (CARDS[cards("8D")[0]], CARDS[cards("9D")[0]]), 2)
    ]
    # The public form never names a card that is now in a hand.
    assert events[0].for_seat(-1) == TookDiscard(0, (), 2)
