"""The particle filter over the opponent's hand (``umtali/ai/particles.py``): deterministic for
a seed and the views shown, blind to the hidden cards, and rebuilt by ``resume`` as it was."""

from __future__ import annotations

import copy
import random

from umtali import RuleSet, Session
from umtali.ai.determinize import hidden_cards
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.particles import ParticleMemory
from umtali.ai.resume import player_seed, resumed
from umtali.codec import session_from_json, session_to_json
from umtali.players import Player


def small(seed: int | str) -> HardPlayer:
    """``hard`` with the filter, budgets small enough for tests."""
    return HardPlayer(seed, budget=200, discard_budget=400, particles=24)


def _guesses(player: HardPlayer) -> tuple[list[int], list[float]]:
    memory = player.memory
    assert isinstance(memory, ParticleMemory)
    return list(memory.hands), list(memory.weights)


def test_the_filter_carries_guesses_that_fit_the_view() -> None:
    """After every view, each guess holds as many cards as the opponent, none the seat sees,
    and every card the seat knows the opponent took from the pile."""
    session = Session(RuleSet.english(), 7)
    hard = small(1)
    players: list[Player] = [hard, NormalPlayer(2)]
    checked = 0
    while not session.over and session.game == 1:
        seat = session.to_act
        view = session.view(seat)
        move = players[seat].choose(view)
        if seat == 0:
            memory = hard.memory
            assert isinstance(memory, ParticleMemory)
            hidden = hidden_cards(view)
            for hand in memory.hands:
                assert hand & ~hidden == 0
                assert hand.bit_count() == view.opponent_hand_size
                assert hand & memory.known_opponent == memory.known_opponent & hidden
            checked += 1
        session.apply(move, seat)
    assert checked > 30


def test_the_same_views_give_the_same_guesses_and_moves() -> None:
    def run() -> tuple[list[object], list[int]]:
        session = Session(RuleSet.english(), 11)
        hard = small(5)
        players: list[Player] = [hard, NormalPlayer(6)]
        moves: list[object] = []
        while not session.over and session.game == 1:
            seat = session.to_act
            move = players[seat].choose(session.view(seat))
            moves.append(move)
            session.apply(move, seat)
        return moves, _guesses(hard)[0]

    assert run() == run()


def test_the_filter_is_blind_to_the_opponents_hand_and_the_stock() -> None:
    """Two sessions that differ only in cards seat 0 cannot see (the opponent's hand and the
    stock, dealt anew from the same hidden cards) show it the same views, so the filter, fed
    the same views, makes the same guesses and the player the same move."""
    rng = random.Random(3)
    compared = 0
    for seed in (21, 22, 23):
        session = Session(RuleSet.english(), seed)
        hard = small(9)
        players: list[Player] = [hard, NormalPlayer(10)]
        for step in range(60):
            if session.over or session.game > 1:
                break
            seat = session.to_act
            view = session.view(seat)
            before = copy.deepcopy(hard)
            move = players[seat].choose(view)
            if seat == 0 and step > 10 and len(view.legal_moves) > 1 and compared < 12:
                other = session_from_json(session_to_json(session))
                h = other.hand
                pool = h.hands[1] | sum(1 << c for c in h.stock)
                cards = [c for c in range(52) if pool >> c & 1]
                rng.shuffle(cards)
                n = h.hands[1].bit_count()
                h.hands[1] = sum(1 << c for c in cards[:n])
                h.stock = cards[n:]
                if h.hands[1] != session.hand.hands[1]:
                    assert other.view(0) == view
                    # The same player (as it stood before this view) on either session.
                    a, b = copy.deepcopy(before), copy.deepcopy(before)
                    assert a.choose(view) == b.choose(other.view(0)) == move
                    assert _guesses(a) == _guesses(b)
                    compared += 1
            session.apply(move, seat)
    assert compared >= 6


def test_a_resumed_player_rebuilds_its_guesses_and_chooses_the_same() -> None:
    """Picked up mid-hand (``resume`` replays the seat's views of the hand in play), the
    player's filter holds the same guesses, and it makes the same moves."""
    compared = 0
    for seed in (3, 4):
        session = Session(RuleSet.english(), seed)
        hard = small(player_seed(session, 0))
        players: dict[int, Player] = {0: hard, 1: NormalPlayer(player_seed(session, 1))}
        for step in range(160):
            if session.over or session.game > 1:
                break
            seat = session.to_act
            view = session.view(seat)
            move = players[seat].choose(view)
            if seat == 0 and step % 5 == 0:
                fresh = resumed(small, session, 0)
                assert isinstance(fresh, HardPlayer)
                # The fresh player has not seen this view yet: show it, then compare.
                again = fresh.choose(view)
                assert _guesses(fresh) == _guesses(hard), (seed, step)
                assert again == move, (seed, step)
                compared += 1
            session.apply(move, seat)
    assert compared > 10
