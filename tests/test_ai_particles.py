"""The particle filter over the opponent's hand (``umtali/ai/particles.py``): deterministic for
a seed and the views shown, blind to the hidden cards, and rebuilt by ``resume`` as it was."""

from __future__ import annotations

import copy
import hashlib
import pickle
import random

from tests.test_compiled import from_sources
from tests.test_compiled_ai import needs_compiled
from umtali import RuleSet, Session
from umtali.ai.determinize import hidden_cards
from umtali.ai.guesses import fit
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


def particle_choices() -> str:
    """A hash of every move of ``small`` and ``normal`` over a game's first hands, and of
    the guesses after each of ``small``'s."""
    h = hashlib.sha256()
    session = Session(RuleSet.english(), "particles-compiled")
    hard = small("p")
    players: list[Player] = [hard, NormalPlayer(1)]
    while not session.over and session.hand_no <= 2:
        seat = session.to_act
        move = players[seat].choose(session.view(seat))
        h.update(f"|{move}|".encode())
        if seat == 0:
            h.update(repr(_guesses(hard)).encode())
        session.apply(move, seat)
    return h.hexdigest()


@needs_compiled
def test_the_filter_guesses_the_same_compiled_and_interpreted() -> None:
    assert particle_choices() == from_sources("tests.test_ai_particles", "particle_choices()")


def test_a_player_with_the_filter_pickles_and_copies_and_plays_on_alike() -> None:
    """The computer pool pickles players, the coach deep-copies them: copies made mid-hand
    carry the same guesses and make the same moves."""
    session = Session(RuleSet.english(), "pickled-particles")
    players = (small("q"), NormalPlayer(2))
    while len(session.hand.plays) < 4 or session.to_act != 0:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)))

    def rest_of_hand(pair: tuple[HardPlayer, NormalPlayer], game: Session) -> list[str]:
        moves, hand_no = [], game.hand_no
        while game.hand_no == hand_no and not game.over:
            move = pair[game.to_act].choose(game.view(game.to_act))
            moves.append(str(move))
            game.apply(move)
        return moves

    twins = (pickle.loads(pickle.dumps(players)), copy.deepcopy(players))
    assert all(_guesses(t[0]) == _guesses(players[0]) for t in twins)
    theirs = [rest_of_hand(twin, session.copy()) for twin in twins]
    ours = rest_of_hand(players, session)
    assert len(ours) > 4 and theirs == [ours, ours]


def test_guesses_fit_a_view_even_when_the_memory_knows_too_many_cards() -> None:
    """A memory knowing more of the opponent's cards than they hold (stale) is trusted for
    the counts instead; a bench once stopped there."""
    hidden = 0b1111110000
    known = 0b0000110000 | 0b0001000000  # three known, two held
    hands, weights = [0b0001110000, 0b1100000000], [1.0, 1.0]
    fit(hands, weights, hidden, known, 2, 1.0, random.Random(1))
    assert all(h.bit_count() == 2 and h & ~hidden == 0 for h in hands)
