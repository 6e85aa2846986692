"""The coach: ``hard``'s move with one line of why, and a review of one seat's hand."""

from __future__ import annotations

import copy

from tests.helpers import position
from umtali import Move, MoveKind, RuleSet, Session
from umtali.ai.coach import Mistake, hint, review
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.reasons import reason
from umtali.ai.resume import seat_history
from umtali.hand import Phase
from umtali.i18n import EN, tr_for
from umtali.view import PlayerView


def _view(**kwargs: object) -> PlayerView:
    session = Session(RuleSet.english(), 0)
    session.hand = position(**kwargs)  # type: ignore[arg-type]
    return session.view(0)


def test_a_hint_is_the_move_hard_makes_and_leaves_the_player_as_it_was() -> None:
    session = Session(RuleSet.english(), 8)
    player = HardPlayer("coach", budget=300)
    other = NormalPlayer()
    hinted = 0
    while not session.over and session.hand_no == 1:
        seat = session.to_act
        view = session.view(seat)
        if seat == 0:
            before = copy.deepcopy(vars(player.memory))
            advice = hint(view, player)
            assert vars(player.memory) == before
            move = player.choose(view)
            assert advice.move == move
            assert EN(advice.reason)
            hinted += 1
        else:
            move = other.choose(view)
        session.apply(move, seat)
    assert hinted > 10


def test_a_discard_hint_names_the_cards_worth_keeping() -> None:
    # 7H 8H wait for 6H or 9H, both unseen; the king's queen lies dead in the pile.
    view = _view(hands=("7H 8H KS 2C 4D", "3C 5S 9D"), stock="AS 2S 6H 9H 10C", discard="QS",
                 turn=0)
    why = EN(reason(view, Move.parse("discard KS")))
    assert why == "keep 7♥ 8♥: 6♥ 9♥ are still in play"
    assert "6♥ 9♥" in tr_for("ru")(reason(view, Move.parse("discard KS")))


def test_a_reviews_discard_line_weighs_the_card_the_player_shed() -> None:
    """In a review, the line on ``hard``'s discard speaks of the card the player shed in its
    place: it named the likeliest hope of the whole hand, which the player may have kept too
    (a line about K♠ when the choice was between A♠ and 8♠)."""
    # 7H 8H wait for 6H or 9H, 2S 3S for AS or 4S, all unseen.
    view = _view(hands=("7H 8H 2S 3S KS", "3C 5S 9D"), stock="AS 4S 6H 9H 10C 2D 5D",
                 discard="QS", turn=0)
    king, three = Move.parse("discard KS"), Move.parse("discard 3S")
    assert EN(reason(view, king)) == "keep 7♥ 8♥: 6♥ 9♥ are still in play"
    assert EN(reason(view, king, instead=three)) == "keep 2♠ 3♠: A♠ 4♠ are still in play"
    assert EN(reason(view, Move.parse("discard 8H"), instead=three)).startswith(
        "discard 8♥ rather than 3♠:")
    # Not a discard, or the same card: as a hint says it.
    assert EN(reason(view, king, instead=king)) == EN(reason(view, king))


def test_hints_for_draws_last_turns_and_the_last_card() -> None:
    view = _view(hands=("7H 8H KS", "3C 5S 9D"), stock="AS 2S", discard="2D", turn=0,
                 phase=Phase.DRAW)
    assert EN(reason(view, Move.parse("draw"))) == (
        "draw from the stock: 2♦ on the pile cannot be melded now")
    last = _view(hands=("10H 9H 2C 4D", ""), turn=0, out=1, discard="AD")
    assert EN(hint(last).reason).startswith("discard 10♥: the opponent went out")
    alone = _view(hands=("5C", "3C 5S 9D"), stock="AS 2S", discard="2D", turn=0)
    advice = hint(alone)
    assert advice.move.kind is MoveKind.DISCARD and advice.move.face_down
    assert EN(advice.reason) == "lay your last card face down: the opponent cannot take it"
    russian = tr_for("ru")(advice.reason)
    assert "рубашкой вверх" in russian and "{" not in russian


def _last_turn_record(played: str) -> list[tuple[PlayerView, Move]]:
    # The opponent went out; whatever stays in hand scores for them.
    view = _view(hands=("10H 9H 2C 4D", ""), stock="AS 2S 3S", turn=0, out=1, discard="AD")
    return [(view, Move.parse(played))]


def test_review_finds_the_costly_move_and_what_hard_would_have_played() -> None:
    found = review(_last_turn_record("discard 2C"), budget=200)
    assert found == [Mistake(0, found[0].view, Move.parse("discard 2C"),
                             Move.parse("discard 10H"), found[0].cost, found[0].why)]
    # Keeping the ten rather than the two hands the opponent four more points.
    assert found[0].cost == 4.0
    assert review(_last_turn_record("discard 10H"), budget=200) == []


def test_review_of_a_whole_hand_lists_at_most_three_costly_moves() -> None:
    session = Session(RuleSet.english(), 6)
    players = [NormalPlayer(), NormalPlayer()]
    record: list[tuple[PlayerView, Move]] = []
    while True:
        seat = session.to_act
        view = session.view(seat)
        move = players[seat].choose(view)
        session.apply(move, seat)
        if session.hand_no != 1 or session.over:
            break
        record = list(seat_history(session, 0))
    found = review(record, budget=300)
    assert len(found) <= 3
    assert [m.cost for m in found] == sorted((m.cost for m in found), reverse=True)
    for m in found:
        view, played = record[m.at]
        assert m.view is view and m.played == played != m.better
        assert m.better in view.legal_moves and m.cost >= 0.25


def test_a_take_hint_names_the_cards_taken() -> None:
    # 7H 8H meld with the 9H on top of the pile; with the 10H beneath it, both may be taken.
    view = _view(hands=("7H 8H KS", "3C 5S 9D"), stock="AS 2S", discard="10H 9H", turn=0,
                 phase=Phase.DRAW)
    assert EN(reason(view, Move.take())) == "take 9♥: it can be melded at once"
    assert EN(reason(view, Move.take_two())) == (
        "take 9♥ 10♥: both can be melded this turn")
    assert "9♥" in tr_for("ru")(reason(view, Move.take()))
