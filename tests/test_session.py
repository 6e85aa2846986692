"""Rulings on the first dealer, dealer alternation, games of four hands, ties and sessions."""

from __future__ import annotations

import random
from itertools import pairwise

from tests.helpers import play, position
from umtali import IllegalMoveError, RuleSet, Session
from umtali.cards import ACE, CARDS
from umtali.events import Event, GameEnded, HandEnded, HandStarted, SessionEnded
from umtali.session import Shuffler, draw_for_dealer


def _play_random(session: Session, seed: int) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = list(session.opening)
    while not session.over:
        events.extend(session.apply(rng.choice(session.legal_moves())))
    return events


def _draw_rank(card: int, ace_high: bool) -> int:
    r = CARDS[card].rank
    return 14 if ace_high and r == ACE else r


def test_first_dealer_higher_card_deals_ace_high() -> None:
    rules = RuleSet.english()
    saw_ace = False
    for seed in range(200):
        draws, dealer = draw_for_dealer(Shuffler(seed), rules)
        a, b = draws[-1]
        ranks = (_draw_rank(a, True), _draw_rank(b, True))
        assert ranks[dealer] > ranks[1 - dealer]
        saw_ace |= 14 in ranks
    assert saw_ace


def test_first_dealer_russian_lower_card_deals_ace_low() -> None:
    rules = RuleSet.russian()
    for seed in range(200):
        draws, dealer = draw_for_dealer(Shuffler(seed), rules)
        a, b = draws[-1]
        ranks = (CARDS[a].rank, CARDS[b].rank)
        assert ranks[dealer] < ranks[1 - dealer]


def test_first_dealer_equal_ranks_draw_again() -> None:
    rules = RuleSet.english()
    ties = 0
    for seed in range(300):
        draws, _ = draw_for_dealer(Shuffler(seed), rules)
        for a, b in draws[:-1]:
            assert CARDS[a].rank == CARDS[b].rank
            ties += 1
        a, b = draws[-1]
        assert CARDS[a].rank != CARDS[b].rank
        assert len({c for pair in draws for c in pair}) == 2 * len(draws)
    assert ties > 0


def test_dealer_alternates_after_every_hand_across_games() -> None:
    for seed in range(5):
        session = Session(RuleSet.english(), seed)
        events = _play_random(session, seed)
        dealers = [e.dealer for e in events if isinstance(e, HandStarted)]
        assert dealers[0] == session.first_dealer
        assert all(a != b for a, b in pairwise(dealers))
        assert len([e for e in events if isinstance(e, GameEnded)]) >= 2


def test_session_is_best_of_three_games() -> None:
    for seed in range(8):
        session = Session(RuleSet.russian() if seed % 2 else RuleSet.english(), seed)
        events = _play_random(session, seed)
        games = [e for e in events if isinstance(e, GameEnded)]
        end = [e for e in events if isinstance(e, SessionEnded)]
        assert len(end) == 1 and end[0] is events[-1]
        assert 2 <= len(games) <= 3
        assert end[0].games_won[end[0].winner] == 2
        assert sum(g.winner == end[0].winner for g in games) == 2


def test_game_is_four_hands_higher_total_wins() -> None:
    session = Session(RuleSet.english(), 11)
    events = _play_random(session, 11)
    for game in (e for e in events if isinstance(e, GameEnded)):
        hands = [e for e in events if isinstance(e, HandEnded) and e.game == game.game]
        assert len(hands) >= 4
        totals = (sum(h.scores[0] for h in hands), sum(h.scores[1] for h in hands))
        assert totals == game.scores
        assert totals[game.winner] > totals[1 - game.winner]
        if len(hands) == 4:
            continue
        # Tie-break hands only while the game is level.
        running = [0, 0]
        for h in hands[:-1]:
            running[0] += h.scores[0]
            running[1] += h.scores[1]
            if h.hand >= 4:
                assert running[0] == running[1]


def _out_in_one(session: Session) -> None:
    """Replace the hand in play by one that seat to act wins 8-0 in two moves."""
    seat = session.hand.turn
    hands = ("8D 9D 10D", "2C") if seat == 0 else ("2C", "8D 9D 10D")
    session.hand = position(hands=hands, stock="3S", turn=seat, dealer=session.hand.dealer)


def test_game_tie_after_four_hands_plays_further_hands() -> None:
    session = Session(RuleSet.english(), 5)
    session.hand_no = 4
    seat = session.hand.turn
    prior = (0, 8) if seat == 0 else (8, 0)
    session.hand_scores = [prior, (0, 0), (0, 0)]
    _out_in_one(session)
    events = []
    for m in ("meld 8D 9D 10D", "draw", "discard 3S"):
        events.extend(session.apply_text(m))
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert ended and ended[0].game_scores == (8, 8)
    assert not [e for e in events if isinstance(e, GameEnded)]
    started = [e for e in events if isinstance(e, HandStarted)]
    assert started[0].hand == 5 and started[0].tie_break
    # The tie-break hand decides the game.
    _out_in_one(session)
    winner = session.hand.turn
    events = []
    for m in ("meld 8D 9D 10D", "draw", "discard 3S"):
        events.extend(session.apply_text(m))
    game = [e for e in events if isinstance(e, GameEnded)]
    assert game and game[0].winner == winner and session.game == 2


def test_session_ends_when_a_player_wins_two_games() -> None:
    session = Session(RuleSet.english(), 5)
    session.games_won = [1, 1]
    session.game = 3
    session.hand_no = 4
    session.hand_scores = [(0, 0), (0, 0), (0, 0)]
    _out_in_one(session)
    winner = session.hand.turn
    events = []
    for m in ("meld 8D 9D 10D", "draw", "discard 3S"):
        events.extend(session.apply_text(m))
    assert isinstance(events[-1], SessionEnded)
    assert events[-1].winner == winner and session.over
    assert session.legal_moves() == []


def test_resign_gives_the_session_to_the_opponent() -> None:
    session = Session(RuleSet.english(), 1)
    events = session.resign(0)
    assert events == [SessionEnded(1, (0, 0), "resigned")]
    assert session.over and session.winner == 1


def test_played_hand_scores_match_the_helper_scenario() -> None:
    h = position(hands=("8D 9D 10D", "2C"), stock="3S")
    play(h, "meld 8D 9D 10D", "draw", "discard 3S")
    assert h.scores() == (8, 0)


def test_a_seat_that_is_not_to_act_is_refused() -> None:
    session = Session(RuleSet.english(), 3)
    other = 1 - session.to_act
    move = session.legal_moves()[0]
    try:
        session.apply(move, seat=other)
    except IllegalMoveError as e:
        assert "not your turn" in str(e)
    else:
        raise AssertionError("a move out of turn was accepted")
    session.apply(move, seat=session.to_act)


def test_a_move_tried_on_a_copy_leaves_the_session_as_it_was() -> None:
    """The bot applies each move to a copy and keeps it only once saved: the copy must be
    independent, and play on exactly as the original would."""
    from umtali.codec import session_to_json

    for rules in (RuleSet.english(), RuleSet.russian()):
        original = Session(rules, 77)
        rng = random.Random(5)
        while not original.over:
            before = session_to_json(original)
            move = rng.choice(original.legal_moves())
            draft = original.copy()
            draft.apply(move)
            assert session_to_json(original) == before
            original.apply(move)
            assert session_to_json(draft) == session_to_json(original)
        copied = original.copy()
        assert copied.over and copied.finished_games[-1] is copied.hand_scores
        resigned = Session(rules, 78).copy()
        resigned.resign(0)
        assert resigned.winner == 1
