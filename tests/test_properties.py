"""Random legal play from many seeds, every invariant checked at every step."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umtali import IllegalMoveError, InvalidMoveError, Move, MoveKind, RuleSet, Session
from umtali.cards import CARDS, POINTS, iter_cards
from umtali.codec import session_from_json, session_to_json
from umtali.events import HandEnd, HandEnded
from umtali.hand import HandState
from umtali.melds import PlayKind
from umtali.view import SPECTATOR

RULES = st.sampled_from(
    [RuleSet.english(), RuleSet.russian(), RuleSet.english(optional_melding=True),
     RuleSet.russian(optional_melding=True)]
)
#: A hand's turns are bounded: the stock runs out twice at most, and stalls end it too.
MAX_TURNS = 200


def _all_cards_once(h: HandState) -> None:
    seen = [0] * 52
    for hand in h.hands:
        for card in iter_cards(hand):
            seen[card] += 1
    for c in (*h.stock, *h.discard_pile):
        seen[c] += 1
    for m in h.melds:
        for c in iter_cards(m.cards):
            seen[c] += 1
    plays = 0
    for p in h.plays:
        plays |= p.cards
    assert plays == h.table_cards
    assert seen == [1] * 52


def _random_illegal(rng: random.Random, state: HandState) -> Move:
    legal = set(state.legal_moves())
    while True:
        kind = rng.choice(list(MoveKind))
        cards = rng.sample(range(52), rng.randint(1, 4))
        move = {
            MoveKind.DRAW: Move.draw(),
            MoveKind.TAKE: Move.take(),
            MoveKind.TAKE_TWO: Move.take_two(),
            MoveKind.MELD: Move.meld(cards),
            MoveKind.EXTEND: Move.extend(cards[0], rng.randrange(52)),
            MoveKind.DISCARD: Move.discard(cards[0], rng.random() < 0.3),
        }[kind]
        if state.canonical(move) not in legal:
            return move


def _view_has_no_hidden_card(session: Session, seat: int) -> None:
    view = session.view(seat)
    h = session.hand
    hidden = set(h.stock)
    for other in (0, 1):
        if other != seat:
            hidden |= set(iter_cards(h.hands[other]))
    if h.face_down and h.out != seat and h.discard_pile:
        hidden.add(h.discard_pile[-1])
    shown: set[int] = set(view.hand)
    shown |= {c for c in view.discard_pile if c is not None}
    for p in view.plays:
        shown |= set(p.cards)
    for m in view.melds:
        shown |= set(m.cards)
    assert not shown & hidden
    text = repr(view)
    for c in hidden:
        assert repr(CARDS[c]) not in text
    assert "seed" not in text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), rules=RULES)
def test_random_play_keeps_every_invariant(seed: int, rules: RuleSet) -> None:
    session = Session(rules, seed)
    rng = random.Random(seed)
    turns_in_hand = 0
    steps = 0
    while not session.over:
        h = session.hand
        _all_cards_once(h)
        legal = session.legal_moves()
        assert legal, "a position that is not over has a legal move"
        assert len(set(legal)) == len(legal)
        for m in legal:
            assert Move.parse(str(m)) == m
        if steps % 7 == 0:
            before = json.dumps(session_to_json(session))
            bad = _random_illegal(rng, h)
            try:
                session.apply(bad)
            except (IllegalMoveError, InvalidMoveError):
                pass
            else:
                raise AssertionError(f"unlisted move {bad} was accepted")
            assert json.dumps(session_to_json(session)) == before
        if steps % 5 == 0:
            data = session_to_json(session)
            again = session_from_json(json.loads(json.dumps(data)))
            assert session_to_json(again) == data
            assert again.legal_moves() == legal
            for seat in (0, 1, SPECTATOR):
                _view_has_no_hidden_card(session, seat)
        hand_before = h
        events = session.apply(rng.choice(legal))
        steps += 1
        turns_in_hand = hand_before.turns
        assert turns_in_hand <= MAX_TURNS
        for e in events:
            if isinstance(e, HandEnded):
                _check_hand_points(hand_before, e)


def _check_hand_points(h: HandState, e: HandEnded) -> None:
    for seat in (0, 1):
        melded = 0
        for p in h.plays:
            if p.player != seat:
                continue
            value = sum(POINTS[c] for c in iter_cards(p.cards))
            melded += value * 2 if p.kind is PlayKind.MARRIAGE else value
        assert e.melded[seat] == melded
        leftover = 0
        if e.reason is HandEnd.WENT_OUT and e.went_out == seat:
            leftover = sum(POINTS[c] for c in iter_cards(h.hands[1 - seat]))
        assert e.scores[seat] == melded + leftover


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), rules=RULES)
def test_a_session_replays_from_its_seed_and_moves(seed: int, rules: RuleSet) -> None:
    session = Session(rules, seed)
    rng = random.Random(seed)
    events = list(session.opening)
    while not session.over:
        events.extend(session.apply(rng.choice(session.legal_moves())))
    again, replayed = Session.replay(rules, seed, [str(m) for m in session.moves])
    assert session_to_json(again) == session_to_json(session)
    assert replayed == events
