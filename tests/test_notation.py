"""Cards and moves: every accepted spelling, one canonical text, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from umtali import Card, InvalidMoveError, Move, MoveKind
from umtali.cards import CARDS, format_cards, parse_cards


@pytest.mark.parametrize(
    "text", ["10D", "td", "TD", "10♦", "♦10", "d10", "10d", " 10D ", "t♦", "10♢", "10♦\ufe0f"]
)
def test_card_spellings_of_ten_of_diamonds(text: str) -> None:
    card = Card.parse(text)
    assert card.code == "10D" and str(card) == "10♦"
    assert card.rank == 10 and card.suit == 2 and card.points == 5


@pytest.mark.parametrize(
    ("text", "code"), [("Q♥", "QH"), ("qh", "QH"), ("as", "AS"), ("sa", "AS"), ("2c", "2C"),
                       ("K♣", "KC"), ("jS", "JS"), ("9h", "9H")],
)
def test_card_spellings(text: str, code: str) -> None:
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "1D", "11D", "ZZ", "10", "D", "10X", "QQ", "A♦♦", "1OD"])
def test_bad_card_says_what_was_expected(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=r"rank .* and a suit"):
        Card.parse(text)


def test_card_repr_reads_like_code() -> None:
    card = Card.parse("10d")
    assert repr(card) == "Card.parse('10D')"
    assert eval(repr(card)) is card  # the repr is the code that builds the card


def test_all_52_cards_round_trip_through_their_code() -> None:
    assert len({c.code for c in CARDS}) == 52
    for c in CARDS:
        assert Card.parse(c.code) is c
        assert Card.parse(str(c)) is c


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("draw", "draw"),
        ("DRAW", "draw"),
        ("take", "take"),
        ("take 2", "take 2"),
        ("take two", "take 2"),
        ("meld 10d 8d 9d", "meld 8D 9D 10D"),
        ("meld 8♦, 9♦, 10♦", "meld 8D 9D 10D"),
        ("meld kh qh", "meld QH KH"),
        ("meld 7c 7s 7h", "meld 7S 7H 7C"),
        ("meld jd", "meld JD"),
        ("extend 7d 8d", "extend 7D 8D"),
        ("extend 7d on 8d", "extend 7D 8D"),
        ("discard ks", "discard KS"),
        ("discard ks down", "discard KS down"),
        ("discard K♠ face-down", "discard KS down"),
    ],
)
def test_move_notation(text: str, canonical: str) -> None:
    move = Move.parse(text)
    assert str(move) == canonical
    assert Move.parse(canonical) == move
    assert repr(move) == f"Move.parse({canonical!r})"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "no move"),
        ("jump", "not a move"),
        ("draw 2", "not a move"),
        ("take 3", "take 2"),
        ("meld", "name the cards"),
        ("meld 8d 8d 9d", "twice"),
        ("extend 7d", "extend 7D 8D"),
        ("extend 7d 7d", "itself"),
        ("discard", "one card"),
        ("discard ks qs", "one card"),
        ("meld 8d 9x", "not a card"),
    ],
)
def test_bad_moves_get_clear_errors(text: str, match: str) -> None:
    with pytest.raises(InvalidMoveError, match=match):
        Move.parse(text)


def test_symbols_text_for_people() -> None:
    assert Move.parse("extend 7d 8d").text(symbols=True) == "extend 7♦ 8♦"
    assert format_cards(parse_cards("10d js")) == "10♦ J♠"


@given(st.sets(st.integers(0, 51), min_size=1, max_size=6), st.integers(0, 51), st.booleans())
def test_every_move_text_parses_back_to_itself(cards: set[int], target: int, down: bool) -> None:
    first = min(cards)
    moves = [Move.meld(sorted(cards)), Move.discard(first, down)]
    if target != first:
        moves.append(Move.extend(first, target))
    for m in moves:
        assert Move.parse(str(m)) == m
        assert Move.parse(m.text(symbols=True)) == m
    assert {m.kind for m in moves} <= set(MoveKind)
