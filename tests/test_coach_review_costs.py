"""The cost a review names is what the mistake loses when played out, not more: the worlds that
decided a move was costly enough to tell (sampled on while unclear, kept once the gain looked
clear) are luckier than most for that gain, so the cost is measured anew on fresh worlds.

Checked as ``bench/coach_costs.py`` does, small: a greedy student's first hands reviewed at a
small budget (where luck is large), each cost named set against the two moves played out on
many more worlds, the same for both."""

from __future__ import annotations

import math
import random

from cogs.umtali.coach_work import seat_record
from umtali.ai.coach import compare, review
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.resume import dealt_view, player_seed
from umtali.players import GreedyPlayer, Player
from umtali.rules import RuleSet
from umtali.session import Session

#: The review's budget: small, so that its luck shows in a few dozen hands.
BUDGET = 300
#: The check's budget: enough worlds that its own luck is a fraction of the review's.
CHECK = 20 * BUDGET


def _first_hand(deal: str) -> Session:
    session = Session(RuleSet.english(), deal)
    players: tuple[Player, Player] = (GreedyPlayer(), NormalPlayer())
    while not session.hand_log:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)), seat)
    return session


def test_the_costs_a_review_names_do_not_lean_high() -> None:
    gaps: list[float] = []
    for i in range(30):
        session = _first_hand(f"costs-{i}")
        hand = session.hand_log[0][:2]
        record = seat_record(session, 0, hand)
        dealt = dealt_view(session, 0, hand)
        seed = player_seed(session, 0)
        charged = {m.at: m for m in review(record, seed, 3, BUDGET, HardPlayer(seed), dealt)}
        memory = HardPlayer(seed).memory  # the models the review had: the same memory's
        if dealt is not None:
            memory.saw(dealt)
        for at, (view, played) in enumerate(record):
            model = memory.observe(view)
            m = charged.get(at)
            if m is not None:
                better, mine = compare(view, (m.better, played), model,
                                       random.Random(f"check:{i}:{at}"), CHECK)
                gaps.append(m.cost - (better - mine))
            memory.note(view, played)
    assert len(gaps) >= 15, gaps
    mean = sum(gaps) / len(gaps)
    se = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1) / len(gaps))
    # Named minus measured: no more than luck's two standard errors (before: +3.6, 1.1).
    assert mean < 2 * se, f"named costs lean high by {mean:.2f} points (standard error {se:.2f})"
