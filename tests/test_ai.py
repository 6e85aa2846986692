"""Computer levels: legal, blind to hidden cards, deterministic, and ranked by strength."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from tests.helpers import mask, position
from umtali import Move, MoveKind, RuleSet, Session
from umtali.ai import LEVELS, lookahead, policy
from umtali.ai.determinize import OpponentModel
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.outlook import of_view
from umtali.ai.search import playout, search
from umtali.cards import iter_cards, mask_of
from umtali.codec import session_from_json, session_to_json
from umtali.events import GameEnded
from umtali.hand import HandState
from umtali.players import GreedyPlayer, Player

Factory = Callable[[int | str], Player]


def small_hard(seed: int | str) -> Player:
    """``hard`` with a budget small enough for tests."""
    return HardPlayer(seed, budget=200, width=3)


FACTORIES: dict[str, Factory] = {
    "easy": LEVELS["easy"],
    "normal": LEVELS["normal"],
    "hard": small_hard,
}


def play_game(
    first: Factory, second: Factory, seed: int, rules: RuleSet | None = None
) -> tuple[Session, list[Move], int]:
    """Play the first game of session ``seed``; return the session, its moves and the winner."""
    session = Session(rules or RuleSet.english(), seed)
    players = [first(f"{seed}:0"), second(f"{seed}:1")]
    while True:
        seat = session.to_act
        view = session.view(seat)
        move = players[seat].choose(view)
        assert move in view.legal_moves
        for event in session.apply(move):
            if isinstance(event, GameEnded):
                return session, list(session.moves), event.winner


def test_levels_are_registered() -> None:
    assert set(LEVELS) == {"easy", "normal", "hard"}
    view = Session(RuleSet.english(), 3).view(0)
    for make in LEVELS.values():
        player = make(7)
        if view.my_turn:
            assert player.choose(view) in view.legal_moves


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("rules", [RuleSet.english(), RuleSet.russian(),
                                   RuleSet.english(optional_melding=True)])
def test_every_level_plays_only_legal_moves(level: str, rules: RuleSet) -> None:
    session, moves, _ = play_game(FACTORIES[level], LEVELS["easy"], 11, rules)
    assert moves and session.finished_games


def _scrambled(session: Session, seat: int, rng: random.Random) -> Session:
    """A copy of ``session`` whose hidden cards differ: the opponent's hand and the stock are
    dealt again from the same cards, in a new order."""
    other = session_from_json(session_to_json(session))
    h = other.hand
    hidden = [*iter_cards(h.hands[1 - seat]), *h.stock]
    n = h.hands[1 - seat].bit_count()
    while True:
        rng.shuffle(hidden)
        if mask_of(hidden[:n]) != h.hands[1 - seat] or not h.stock:
            break
    h.hands[1 - seat] = mask_of(hidden[:n])
    h.stock = hidden[n:]
    h._legal = None
    return other


def _positions(count: int) -> list[tuple[Session, int]]:
    """Positions of greedy self-play where the player to act has a real choice."""
    out: list[tuple[Session, int]] = []
    rng = random.Random(5)
    seed = 0
    while len(out) < count:
        session = Session(RuleSet.english(), seed)
        seed += 1
        players = [GreedyPlayer(), GreedyPlayer()]
        while not session.over and session.game == 1:
            seat = session.to_act
            view = session.view(seat)
            if len(view.legal_moves) > 1 and view.opponent_hand_size and rng.random() < 0.1:
                out.append((session_from_json(session_to_json(session)), seat))
            session.apply(players[seat].choose(view))
    return out[:count]


def test_a_computer_player_cannot_see_the_opponents_hand_or_the_stock_order() -> None:
    rng = random.Random(9)
    differing = 0
    for session, seat in _positions(12):
        other = _scrambled(session, seat, rng)
        differing += other.hand.hands[1 - seat] != session.hand.hands[1 - seat]
        assert other.hand.stock != session.hand.stock or not session.hand.stock
        view = session.view(seat)
        assert other.view(seat) == view
        for level, make in FACTORIES.items():
            a = make(42).choose(view)
            b = make(42).choose(other.view(seat))
            assert a == b, level
    assert differing >= 10


def test_same_seed_same_game_so_a_game_replays() -> None:
    _, first, _ = play_game(small_hard, LEVELS["normal"], 4)
    _, again, _ = play_game(small_hard, LEVELS["normal"], 4)
    assert first == again


def test_a_player_created_mid_hand_plays_on() -> None:
    session = Session(RuleSet.english(), 8)
    players: list[Player] = [small_hard(1), LEVELS["normal"](2)]
    moves = 0
    while not session.over and session.game == 1:
        seat = session.to_act
        if moves % 7 == 3:
            # A restart: the bot lost its players' memory.
            players = [small_hard(1), LEVELS["normal"](2)]
        view = session.view(seat)
        move = players[seat].choose(view)
        assert move in view.legal_moves
        session.apply(move)
        moves += 1


def test_hard_without_confidence_in_its_search_plays_as_normal_but_looks_ahead() -> None:
    """The search overrules the ``normal`` choice only on evidence: with an infinite margin it
    never does, and ``hard`` plays ``normal``'s moves, except that of ``normal``'s two best
    discards it sheds the one that looks better one draw ahead, and it draws as that look
    ahead says."""
    never = HardPlayer(3, budget=100, width=3, z=math.inf)
    normal = NormalPlayer(3)
    session = Session(RuleSet.english(), 21)
    opponent = GreedyPlayer()
    differed = 0
    while not session.over and session.game == 1:
        seat = session.to_act
        view = session.view(seat)
        if seat == 0:
            model = normal.memory.observe(view)
            o = of_view(view, model.known)
            usual = policy.choose(o, view.legal_moves)
            normal.memory.note(view, usual)
            move = never.choose(view)
            if usual.kind is MoveKind.DISCARD:
                assert move == lookahead.choose_discard(o, view.legal_moves)
                assert move in policy.rank_discards(o, view.legal_moves)[:lookahead.WIDTH]
                differed += move != usual
            elif usual.kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
                assert move == lookahead.choose_draw(o, view.legal_moves)
                differed += move != usual
            else:
                assert move == usual
        else:
            move = opponent.choose(view)
        session.apply(move)
    assert differed >= 1, "the lookahead never chose otherwise than normal: is it used?"


def _win_rate(upper: Factory, lower: Factory, deals: int, seed: int = 100) -> tuple[float, float]:
    """Games won by ``upper`` and its average lead in points per hand, every deal from both
    seats."""
    wins = 0
    lead = 0
    hands = 0
    for d in range(deals):
        for swap in (False, True):
            first, second = (lower, upper) if swap else (upper, lower)
            session, _, winner = play_game(first, second, seed + d)
            upper_seat = 1 if swap else 0
            wins += winner == upper_seat
            for scores in session.finished_games[0]:
                lead += scores[upper_seat] - scores[1 - upper_seat]
                hands += 1
    return wins / (2 * deals), lead / hands


def test_normal_beats_easy() -> None:
    rate, lead = _win_rate(LEVELS["normal"], LEVELS["easy"], 60)
    assert rate > 0.6 and lead > 2


def test_hard_looks_ahead_on_discards_and_follows_normal_on_draws() -> None:
    """Draws are never searched (one candidate); discards search the look ahead's choice
    (first, the yardstick) against the rest of ``normal``'s best three, except in the last turn
    and with one card left; meld choices that leave different hands are searched."""
    player = HardPlayer(0, budget=100)
    session = Session(RuleSet.english(), 0)
    discards = 0
    opponent = GreedyPlayer()
    while not session.over and session.game == 1:
        seat = session.to_act
        view = session.view(seat)
        if seat == 0:
            outlook = of_view(view)
            candidates = player.candidates(outlook, view.legal_moves)
            assert set(candidates) <= set(view.legal_moves)
            kinds = {m.kind for m in view.legal_moves}
            if MoveKind.DRAW in kinds:
                assert candidates == [lookahead.choose_draw(outlook, view.legal_moves)]
            elif kinds == {MoveKind.DISCARD}:
                ahead = lookahead.choose_discard(outlook, view.legal_moves)
                best = policy.rank_discards(outlook, view.legal_moves)[:player.discard_width]
                if outlook.last_turn or len(view.hand) == 1:
                    assert candidates == [ahead]
                else:
                    assert candidates[0] == ahead
                    assert set(candidates) == {ahead, *best}
                    discards += 1
            else:
                assert candidates[0] == policy.choose(outlook, view.legal_moves)
        session.apply(player.choose(view) if seat == 0 else opponent.choose(view))
    assert discards >= 8


def test_search_sees_a_discard_that_lets_the_opponent_go_out() -> None:
    # The opponent is known to hold 9H 10H: discarding 8H lets them meld out at once and take
    # the points of the kings and the queen left in hand; discarding 2C does not.
    h = position(hands=("8H 2C KS KD QC", "9H 10H"), stock="4D 6S 3C", turn=0, discard="AD")
    session = Session(RuleSet.english(), 0)
    session.hand = h
    view = session.view(0)
    model = OpponentModel(known=mask("9H 10H"), meld_free=True)
    rules = RuleSet.english()
    gift, safe = Move.parse("discard 8H"), Move.parse("discard 2C")
    rng = random.Random(0)
    assert search(view, [gift, safe], rng, 2000, model, rules) == 1
    assert search(view, [safe, gift], rng, 2000, model, rules) == 0


def test_last_turn_discards_the_highest_card() -> None:
    # The opponent went out: whatever stays in hand scores for them, so the ten goes, though
    # at any other time 9H 10H would wait for 8H.
    h = position(hands=("10H 9H 2C 4D", ""), turn=0, out=1, discard="AD")
    session = Session(RuleSet.english(), 0)
    session.hand = h
    view = session.view(0)
    outlook = of_view(view)
    assert outlook.last_turn
    assert policy.choose(outlook, view.legal_moves) == Move.parse("discard 10H")
    assert HardPlayer(0, budget=100).choose(view) == Move.parse("discard 10H")
    usual = policy.choose(outlook._replace(last_turn=False, opponent_size=8), view.legal_moves)
    assert usual.card.points == 1


def test_a_resumed_player_knows_what_it_knew_and_chooses_the_same() -> None:
    """Picked up mid-hand (as after a restart), a player remembers what the pile told it and
    makes the moves the uninterrupted player makes."""
    from umtali.ai.resume import player_seed, resumed

    makers: dict[int, Factory] = {0: LEVELS["normal"], 1: small_hard}
    remembered = compared = 0
    for seed in (3, 4, 5):
        session = Session(RuleSet.english(), seed)
        players = {seat: make(player_seed(session, seat)) for seat, make in makers.items()}
        for step in range(300):
            if session.over or session.game > 1:
                break
            seat = session.to_act
            view = session.view(seat)
            fresh = resumed(makers[seat], session, seat)
            memory = _memory(players[seat])
            if memory["_hand"] == (session.game, session.hand_no):
                # (At a hand's first view the old player still holds the last hand's memory,
                # which its next look forgets.)
                assert _memory(fresh) == memory, (seed, step)
            # A pile remembered from its last turn is what a player made anew would not know.
            remembered += memory["_pile"] is not None
            move = players[seat].choose(view)
            if len(view.legal_moves) > 1:
                assert fresh.choose(view) == move, (seed, step)
            compared += 1
            session.apply(move, seat)
    assert compared > 100 and remembered > 5, (compared, remembered)


def _memory(player: Player) -> dict[str, object]:
    """What a player remembers that counts for its next look (the stock size counts only
    with the pile it goes with)."""
    memory = dict(vars(player.memory))  # type: ignore[attr-defined]
    if memory["_pile"] is None:
        del memory["_stock"]
    return memory


def test_the_computer_is_not_given_the_seed_of_the_deals() -> None:
    """The session's seed foretells every deal: the computer's own seed is a one-way hash of
    it, different per seat, and the same each time (its game replays)."""
    from umtali.ai.resume import player_seed

    session = Session(RuleSet.english(), "5fa346b67560531f16c43d05db511bde")
    seeds = {player_seed(session, seat) for seat in (0, 1)}
    assert len(seeds) == 2 and all(str(session.seed) not in s for s in seeds)
    assert player_seed(session, 1) == player_seed(Session(RuleSet.english(), session.seed), 1)


def test_a_search_given_its_worlds_plays_in_them_and_hard_samples_its_own() -> None:
    """``search``'s ``deal`` is where its worlds come from (``bench/ceiling.py`` deals them from
    the real hand): in the one real world, the discard whose playout ends best is chosen."""
    session = Session(RuleSet.english(), 5)
    view = session.view(session.to_act)
    while view.seat != 0 or len(view.legal_moves) < 3 or any(
            m.kind is not MoveKind.DISCARD for m in view.legal_moves):
        session.apply(NormalPlayer().choose(view))
        view = session.view(session.to_act)
    moves = list(view.legal_moves[:3])
    real = session.hand.copy()
    dealt: list[int] = []

    def deal(rng: random.Random) -> HandState:
        dealt.append(1)
        return real.copy()

    leads = []
    for move in moves:
        state = real.copy()
        state._play(move)
        leads.append(playout(state, 0)[0])
    best = search(view, moves, random.Random(1), 600, OpponentModel(), RuleSet.english(),
                  z=1.0, deal=deal)
    assert dealt and len(set(leads)) > 1
    # The same world every time: no noise, so any better lead beats the first clearly.
    top = max(range(3), key=lambda i: (leads[i], -i))
    assert best == (top if leads[top] > leads[0] else 0)
    assert session.hand.hands == real.hands  # the real hand is only ever copied
    assert HardPlayer().worlds(view) is None
