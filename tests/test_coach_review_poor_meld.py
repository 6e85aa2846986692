"""A meld that took the cards of a better one is charged, even when the move ``hard`` would
make first stays legal after it: ``hard`` would never have laid it. (A meld that only put
another off, which ``hard`` lays too, is not: ``test_coach_review_order``.)"""

from __future__ import annotations

from cogs.umtali.coach_work import HARD_BUDGET, seat_record
from umtali import Move, RuleSet, Session
from umtali.ai.coach import REVIEW_BUDGET, review
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.resume import dealt_view, player_seed
from umtali.players import Player, RandomPlayer


def test_a_meld_hard_would_not_lay_is_charged_though_its_better_stays_legal() -> None:
    # Session "po-38" (optional melding), a random player against ``normal``, its first hand.
    # On seat 0's third decision it lays 7♥ 8♥ 9♥, where ``hard`` lays J♣ alone, then 7♥ 7♦ 7♣
    # (the sevens need the 7♥), then discards 8♥. J♣ is still legal after the run: the run was
    # taken for J♣ merely put off, and charged nowhere.
    session = Session(RuleSet.english(optional_melding=True), "po-38")
    players: tuple[Player, Player] = (RandomPlayer(), NormalPlayer())
    while not session.hand_log:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)), seat)
    hand = session.hand_log[0][:2]
    record = seat_record(session, 0, hand)
    view, played = record[2]
    assert played == Move.parse("meld 7H 8H 9H")
    assert Move.parse("meld 7H 7D 7C") in view.legal_moves
    seed = player_seed(session, 0)
    # (Four budgets: the run costs some 1.4 points, near the luck of one.)
    found = review(record, seed, len(record), 4 * REVIEW_BUDGET,
                   HardPlayer(seed, budget=HARD_BUDGET),
                   dealt_view(session, 0, hand))
    charged = {m.at: m for m in found}
    assert 2 in charged, [(m.at, str(m.played), str(m.better), m.cost) for m in found]
    assert charged[2].better == Move.parse("meld JC")
