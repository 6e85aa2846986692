"""Whether the coach's review names the costs its mistakes really have.

For each of N practice hands (the student: ``normal``, or ``greedy``, against ``normal``), the
review of the student's first hand (``umtali.ai.coach.review``, as the bot runs it); then each
mistake it charges is measured again: its two moves played out from the student's view on
fresh worlds, many more of them (``--check`` times the review's budget), the same worlds for
both moves. Printed: the mean cost the review names against the mean measured, for every
mistake charged and for the three a review names, with their standard errors; of those three,
the ones said under half a point ("about a point better"); and how many hands' reviews name
any mistake (``--floor``: the review's ``REVIEW_FLOOR`` instead, to count what it changes).

Run with ``.venv/bin/python bench/coach_costs.py [--hands 40] [--student normal]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.umtali.coach_work import HARD_BUDGET, seat_record
from umtali.ai import coach
from umtali.ai.coach import REVIEW_BUDGET, compare, review
from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.ai.resume import dealt_view, player_seed
from umtali.players import GreedyPlayer, Player
from umtali.rules import RuleSet
from umtali.session import Session


def mean_se(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return math.nan, math.nan
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))


def first_hand(deal: str, student: Player, optional: bool) -> Session:
    """A session played by the student (seat 0) and ``normal`` until its first hand ended."""
    session = Session(RuleSet.english(optional_melding=optional), deal)
    players = (student, NormalPlayer())
    while not session.hand_log and not session.over:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)), seat)
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--student", choices=("normal", "greedy"), default="normal")
    parser.add_argument("--budget", type=int, default=REVIEW_BUDGET)
    parser.add_argument("--check", type=int, default=8, help="the check's budget, in reviews'")
    parser.add_argument("--prefix", default="cc")
    parser.add_argument("--floor", type=float, default=coach.REVIEW_FLOOR)
    args = parser.parse_args()
    coach.REVIEW_FLOOR = args.floor
    reviewed = 0
    small_named: list[float] = []
    small_measured: list[float] = []
    named_all: list[float] = []
    measured_all: list[float] = []
    named_top: list[float] = []
    measured_top: list[float] = []
    began = time.monotonic()
    for i in range(args.hands):
        student: Player = NormalPlayer() if args.student == "normal" else GreedyPlayer()
        session = first_hand(f"{args.prefix}-{i}", student, optional=i % 2 == 1)
        hand = session.hand_log[0][:2]
        record = seat_record(session, 0, hand)
        dealt = dealt_view(session, 0, hand)
        seed = player_seed(session, 0)
        found = review(record, seed, len(record), args.budget,
                       HardPlayer(seed, budget=HARD_BUDGET), dealt)
        top = {m.at for m in found[:3]}
        reviewed += bool(found)
        charged = {m.at: m for m in found}
        # The student's models as the review had them: the same memory, fed the same views.
        memory = HardPlayer(seed).memory
        if dealt is not None:
            memory.saw(dealt)
        for at, (view, played) in enumerate(record):
            model = memory.observe(view)
            m = charged.get(at)
            if m is not None:
                rng = random.Random(f"check:{args.prefix}-{i}:{at}")
                better, mine = compare(view, (m.better, played), model, rng,
                                       args.check * args.budget)
                named_all.append(m.cost)
                measured_all.append(better - mine)
                if at in top:
                    named_top.append(m.cost)
                    measured_top.append(better - mine)
                    if round(m.cost) < 1:
                        small_named.append(m.cost)
                        small_measured.append(better - mine)
                print(f"hand {i} decision {at}: named {m.cost:5.2f} (±{m.error:.2f}) "
                      f"measured {better - mine:5.2f}  {played} -> {m.better}", flush=True)
            memory.note(view, played)
    for what, named, measured in (("every mistake charged", named_all, measured_all),
                                  ("the three named", named_top, measured_top),
                                  ("of those, said under half a point", small_named,
                                   small_measured)):
        n, nse = mean_se(named)
        w, wse = mean_se(measured)
        d, dse = mean_se([a - b for a, b in zip(named, measured, strict=True)])
        print(f"{what}: {len(named)} over {args.hands} hands; named {n:.2f} ({nse:.2f}), "
              f"measured {w:.2f} ({wse:.2f}), named - measured {d:+.2f} ({dse:.2f})")
    print(f"hands whose review names a mistake: {reviewed} of {args.hands} "
          f"(floor {args.floor})")
    print(f"{time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
