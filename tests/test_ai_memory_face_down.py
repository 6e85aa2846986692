"""A seat's memory when the opponent goes out with a face-down last discard: the face-down card
hides which card they shed, so no card the seat saw them take is known to stay in their hand
(and when that card was their last, none is left)."""

from __future__ import annotations

import random

import pytest

from tests.helpers import mask, position
from umtali import Move, RuleSet, Session
from umtali.ai.memory import Memory
from umtali.ai.normal import NormalPlayer
from umtali.moves import MoveKind
from umtali.players import Player, RandomPlayer


def _seat_1_takes_9s(hand_1: str, *moves: str) -> tuple[Session, Memory]:
    """Seat 0 sheds 9S, its memory noting it; seat 1 takes it and plays ``moves``."""
    rules = RuleSet.english()
    h = position(hands=("2C 5D 9S QH", hand_1), discard="AH", turn=0, rules=rules)
    session = Session(rules, 0)
    session.hand = h
    memory = Memory()
    view = session.view(0)
    memory.observe(view)
    move = Move.parse("discard 9S")
    memory.note(view, move)
    session.apply(move)
    for text in ("take", *moves):
        session.apply(Move.parse(text))
    return session, memory


def test_a_taken_card_laid_face_down_to_go_out_is_no_longer_known() -> None:
    # Seat 1 takes 9S, melds its run and goes out laying 9S, its last card, face down.
    session, memory = _seat_1_takes_9s("5H 6H 7H", "meld 5H 6H 7H", "discard 9S down")
    view = session.view(0)
    assert view.went_out == 1 and view.top_face_down and view.opponent_hand_size == 0
    model = memory.observe(view)
    assert model.known == 0
    assert memory.known_opponent == 0


def test_a_taken_card_still_held_stays_known() -> None:
    # Seat 1 takes 9S and sheds another card face up: 9S is in its hand.
    session, memory = _seat_1_takes_9s("5H 6H 7H KD", "meld 5H 6H 7H", "discard KD")
    assert memory.observe(session.view(0)).known == mask("9S")


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_what_the_memory_knows_of_the_opponent_is_true_in_real_sessions(variant: str) -> None:
    """At every decision of both seats, in sessions of ``normal`` and random play: every card
    the memory holds as the opponent's is in their hand. The sessions must include hands where
    the opponent went out laying face down a card the seat saw them take."""
    covered = 0
    for sid in range(24):
        rnd = random.Random(f"{variant}:{sid}")
        rules = RuleSet.named(variant, optional_melding=sid % 4 == 3)
        session = Session(rules, f"fix131-{variant}-{sid}")
        memories = [Memory(), Memory()]
        normal: list[Player] = [NormalPlayer(f"a{sid}"), NormalPlayer(f"b{sid}")]
        random_play: list[Player] = [RandomPlayer(f"ra{sid}"), RandomPlayer(f"rb{sid}")]
        # Cards each seat saw its opponent take from the pile this hand (the truth).
        taken = [0, 0]
        hand_key = (0, 0)
        while not session.over:
            if (session.game, session.hand_no) != hand_key:
                hand_key = (session.game, session.hand_no)
                taken = [0, 0]
            seat = session.to_act
            view = session.view(seat)
            model = memories[seat].observe(view)
            theirs = session.hand.hands[1 - seat]
            assert model.known & ~theirs == 0, (variant, sid, session.move_texts())
            assert model.known.bit_count() <= view.opponent_hand_size
            pile = session.hand.discard_pile
            if view.top_face_down and view.went_out == 1 - seat and taken[seat] >> pile[-1] & 1:
                covered += 1
            players = random_play if rnd.random() < 0.5 else normal
            move = players[seat].choose(view)
            memories[seat].note(view, move)
            if move.kind is MoveKind.TAKE:
                taken[1 - seat] |= 1 << pile[-1]
            elif move.kind is MoveKind.TAKE_TWO:
                taken[1 - seat] |= 1 << pile[-1] | 1 << pile[-2]
            session.apply(move, seat)
    assert covered > 0
