"""The discard value learned from self-play (``umtali/ai/value.py``, ``HardPlayer(learned=True)``):
its weights load, it plays legal moves through whole games, the same seed and views give the
same moves, it is blind to the hidden cards, and a player picked up mid-hand chooses the same."""

from __future__ import annotations

import copy
import math
import random

import pytest

from tests.helpers import mask
from umtali import RuleSet, Session
from umtali.ai import value, value_weights
from umtali.ai.hard import HardPlayer
from umtali.ai.heuristics import holding_odds, keep_values
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import Outlook
from umtali.ai.resume import player_seed, resumed
from umtali.cards import FULL_DECK, iter_cards
from umtali.codec import session_from_json, session_to_json
from umtali.events import GameEnded
from umtali.moves import Move, MoveKind
from umtali.players import Player


def small(seed: int | str) -> HardPlayer:
    """``hard`` with the learned value, budgets small enough for tests."""
    return HardPlayer(seed, budget=200, discard_budget=400, learned=True)


def test_the_weights_load_one_for_each_feature() -> None:
    d = len(value.FEATURES)
    w = value_weights
    assert len(w.MEANS) == len(w.SCALES) == len(w.LINEAR) == d
    assert len(w.QUADRATIC) == d * (d + 1) // 2
    weights = (*w.MEANS, *w.SCALES, *w.LINEAR, *w.QUADRATIC)
    assert all(math.isfinite(x) for x in weights) and all(s > 0 for s in w.SCALES)
    assert any(x != 0.0 for x in w.LINEAR) and any(x != 0.0 for x in w.QUADRATIC)  # fitted


def test_the_features_of_a_discard_read_the_hand_it_leaves() -> None:
    hand = mask("KH QC 7S 7D 2C 4C")
    o = Outlook(hand, (), 0, FULL_DECK & ~hand, 0, 10, 20, -1, False)
    draws = list(iter_cards(o.live))
    odds, values = holding_odds(o), keep_values(o, hand)
    names = value.FEATURES
    king = dict(zip(names, value.features(o, mask("KH").bit_length() - 1, draws, odds,
                                           value.Signals(), values), strict=True))
    two = dict(zip(names, value.features(o, mask("2C").bit_length() - 1, draws, odds,
                                         value.Signals(), values), strict=True))
    assert king["points shed"] == 5 and two["points shed"] == 1
    assert king["live pairs left"] == two["live pairs left"] == 1  # the sevens
    assert two["live sequence pieces left"] == 0 and king["live sequence pieces left"] == 1
    assert king["lone marriage halves left"] == 1  # the queen of clubs
    assert two["lone marriage halves left"] == 2


def play_game(rules: RuleSet, seed: int) -> list[Move]:
    session = Session(rules, seed)
    players: list[Player] = [small(f"{seed}:0"), NormalPlayer(f"{seed}:1")]
    if seed % 2:
        players.reverse()
    moves = []
    while True:
        seat = session.to_act
        view = session.view(seat)
        move = players[seat].choose(view)
        assert move in view.legal_moves
        moves.append(move)
        for event in session.apply(move):
            if isinstance(event, GameEnded):
                return moves


@pytest.mark.parametrize("rules", [RuleSet.english(), RuleSet.russian(),
                                   RuleSet.english(optional_melding=True)])
def test_it_plays_legal_moves_through_a_whole_game(rules: RuleSet) -> None:
    moves = play_game(rules, 31)
    assert sum(m.kind is MoveKind.DISCARD for m in moves) > 20


def test_the_same_seed_plays_the_same_game() -> None:
    assert play_game(RuleSet.english(), 32) == play_game(RuleSet.english(), 32)


def test_the_learned_value_changes_some_discards() -> None:
    """Against the look ahead's, on the same views: the option is on."""
    session = Session(RuleSet.english(), 33)
    learned, plain = small(1), HardPlayer(1, budget=200, discard_budget=0)
    players: list[Player] = [learned, NormalPlayer(2)]
    differ = 0
    while not session.over and session.game == 1:
        seat = session.to_act
        view = session.view(seat)
        if seat == 0 and view.legal_moves[0].kind is MoveKind.DISCARD:
            model = copy.deepcopy(learned.memory).observe(view)
            bare = HardPlayer(1, budget=200, discard_budget=0, learned=True)
            differ += bare.decide(view, model) != plain.decide(view, model)
        session.apply(players[seat].choose(view), seat)
    assert differ > 0


def test_it_is_blind_to_the_opponents_hand_and_the_stock() -> None:
    """Two sessions that differ only in cards seat 0 cannot see show it the same view, and the
    same player (as it stood before that view) makes the same move in both."""
    rng = random.Random(3)
    compared = 0
    for seed in (21, 22):
        session = Session(RuleSet.english(), seed)
        hard = small(9)
        players: list[Player] = [hard, NormalPlayer(10)]
        for step in range(80):
            if session.over or session.game > 1:
                break
            seat = session.to_act
            view = session.view(seat)
            before = copy.deepcopy(hard)
            move = players[seat].choose(view)
            if seat == 0 and step > 6 and view.legal_moves[0].kind is MoveKind.DISCARD:
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
                    a, b = copy.deepcopy(before), copy.deepcopy(before)
                    assert a.choose(view) == b.choose(other.view(0)) == move
                    compared += 1
            session.apply(move, seat)
    assert compared >= 6


def test_a_resumed_player_chooses_the_same() -> None:
    """Picked up mid-hand (``resume`` replays the seat's views of the hand in play), the player
    remembers the opponent's turns as before and makes the same moves."""
    compared = 0
    session = Session(RuleSet.english(), 4)
    hard = small(player_seed(session, 0))
    players: dict[int, Player] = {0: hard, 1: NormalPlayer(player_seed(session, 1))}
    for step in range(160):
        if session.over or session.game > 1:
            break
        seat = session.to_act
        view = session.view(seat)
        move = players[seat].choose(view)
        if seat == 0 and step % 4 == 0:
            fresh = resumed(small, session, 0)
            assert fresh.choose(view) == move, step
            compared += 1
        session.apply(move, seat)
    assert compared > 10
