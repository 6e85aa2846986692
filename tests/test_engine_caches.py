"""What the engine keeps between moves must equal what it would work out again: what the table
accepts (kept until a card is laid), the heading views share (forgotten when the winner is
decided), and simulate's statistics (read only when a move ends a hand)."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest

from umtali import RuleSet, Session
from umtali.cards import JACKS
from umtali.cli import main
from umtali.errors import InvalidStateError
from umtali.events import HandEnded
from umtali.hand import HandState
from umtali.listing import table_easy
from umtali.players import RandomPlayer
from umtali.view import SPECTATOR

RULES = [RuleSet.english(), RuleSet.russian(),
         RuleSet.named("english", optional_melding=True)]


def _accepted(h: HandState) -> int:
    easy = JACKS
    for m in h.melds:
        easy |= m.accepts
    return easy


@pytest.mark.parametrize("rules", RULES, ids=["english", "russian", "optional"])
def test_what_the_table_accepts_is_kept_right(rules: RuleSet) -> None:
    laid = 0
    for seed in range(6):
        session = Session(rules, seed)
        rng = random.Random(seed)
        while not session.over:
            h = session.hand
            # Kept or not, it is what the melds on the table accept now (and so in a copy).
            assert h._accepts in (-1, _accepted(h)), session.moves
            assert table_easy(h) == _accepted(h) == table_easy(h.copy())
            plays = len(h.plays)
            legal = session.legal_moves()
            # Laying more often than at random: tables that change within a turn.
            keen = [m for m in legal if m.kind.value in ("meld", "extend")]
            session.apply(rng.choice(keen if keen and rng.random() < 0.7 else legal))
            laid += session.hand is h and len(h.plays) > plays
    assert laid > 100


def test_views_show_the_winner_once_it_is_decided() -> None:
    session = Session(RuleSet.english(), 3)
    before = [session.view(seat) for seat in (0, 1, SPECTATOR)]
    to_act = session.to_act
    assert before[to_act].legal_moves and before[to_act].winner == -1
    session.resign(0)
    for seat in (0, 1, SPECTATOR):
        view = session.view(seat)
        assert view.winner == 1 and view.to_act == -1 and view.legal_moves == ()
        assert not view.my_turn
    # A view made before keeps its own position.
    assert before[to_act].winner == -1 and before[to_act].legal_moves

    # Played out: the last move's views show the winner.
    session = Session(RuleSet.english(), 4)
    rng = random.Random(4)
    while not session.over:
        seat = session.to_act
        view = session.view(seat)
        assert view.winner == -1 and view.to_act == seat
        session.apply(rng.choice(view.legal_moves))
    assert session.view(0).winner == session.winner >= 0
    assert session.view(SPECTATOR).to_act == -1


def test_simulate_counts_as_the_events_say() -> None:
    """simulate reads a move's events only when the move ended the hand: its statistics are
    those of every ``HandEnded``."""
    hands, seed = 40, 5
    rules = RuleSet.english()
    ends: Counter[str] = Counter()
    done = turns = moves = 0
    points = [0, 0]
    s = seed
    while done < hands:
        session = Session(rules, s)
        players = (RandomPlayer(f"{s}:0"), RandomPlayer(f"{s}:1"))
        s += 1
        while not session.over and done < hands:
            hand = session.hand
            seat = session.to_act
            for e in session.apply(players[seat].choose(session.view(seat))):
                if isinstance(e, HandEnded):
                    done += 1
                    turns += hand.turns
                    ends[e.reason.value] += 1
                    points[0] += e.scores[0]
                    points[1] += e.scores[1]
            moves += 1
    out = io.StringIO()
    assert main(["simulate", "--hands", str(hands), "--seed", str(seed)], stdout=out) == 0
    text = out.getvalue()
    assert f"average turns per hand: {turns / hands:.1f}; moves per hand: " \
           f"{moves / hands:.1f}" in text
    for reason, n in ends.items():
        assert f"  {reason}: {n} ({100 * n / hands:.1f}%)" in text
    assert f"seat 1 {points[0] / hands:.1f}, seat 2 {points[1] / hands:.1f}" in text


def test_the_suit_discard_tables_list_each_card_of_the_pattern_lowest_first() -> None:
    from umtali.listing import _S0, _S1, _S2, _S3
    from umtali.moves import Move

    for suit, table in enumerate((_S0, _S1, _S2, _S3)):
        assert len(table) == 1 << 13
        for pattern in range(1 << 13):
            want = tuple(Move.discard(13 * suit + r) for r in range(13) if pattern >> r & 1)
            assert table[pattern] == want


@pytest.mark.parametrize("rules", RULES[:2], ids=["english", "russian"])
def test_the_deal_gives_one_card_at_a_time_the_non_dealer_first(rules: RuleSet) -> None:
    rng = random.Random(2)
    for i in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        dealer = i % 2
        h = HandState.deal(rules, dealer, deck, "k")
        hands = [0, 0]
        for pos in range(20):
            hands[(1 - dealer) if pos % 2 == 0 else dealer] |= 1 << deck[pos]
        if rules.deal.value == "eleven":
            hands[1 - dealer] |= 1 << deck[20]
            assert h.discard_pile == [] and h.phase.value == "meld"
        else:
            assert h.discard_pile == [deck[20]] and h.phase.value == "draw"
        assert h.hands == hands and h.stock == deck[21:][::-1]
    for bad in (list(range(51)), [*range(51), 0], [*range(51), 52], [*range(52), 0]):
        with pytest.raises(InvalidStateError):
            HandState.deal(rules, 0, bad, "k")
