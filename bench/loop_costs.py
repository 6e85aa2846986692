"""What a turn's synchronous work costs on the event loop, on the longest of N self-play
sessions (best of three, tie hands included): saving its state, loading it back, replaying it
from its seed, its replay and verify files, the table and hand pictures drawn afresh, the
embeds and the hand panel with the most menus. Figures only; no pass/fail.

Run with ``.venv/bin/python bench/loop_costs.py [--sessions N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.umtali.arrange import HandOrder
from cogs.umtali.fair import verify_file
from cogs.umtali.pictures import draw_hand_png, draw_table_png, warm
from cogs.umtali.play_panel import hand_panel
from cogs.umtali.render import hand_embed, table_embed
from cogs.umtali.saved import saved_state
from umtali import RuleSet, Session
from umtali.codec import session_from_json
from umtali.i18n import EN
from umtali.players import GreedyPlayer
from umtali.view import SPECTATOR

NAMES = ("Алёша Попович", "Guinevere of the Round Table")


def longest(count: int) -> Session:
    best: Session | None = None
    for i in range(count):
        rules = RuleSet.russian() if i % 3 == 2 else RuleSet.english(optional_melding=i % 2 == 1)
        session = Session(rules, 2000 + i)
        player = GreedyPlayer()
        while not session.over:
            seat = session.to_act
            session.apply(player.choose(session.view(seat)), seat)
        if best is None or len(session.moves) > len(best.moves):
            best = session
    assert best is not None
    return best


def timed(what: str, make: Callable[[], Any], runs: int = 20) -> None:
    took = []
    for _ in range(runs):
        start = time.perf_counter()
        make()
        took.append(time.perf_counter() - start)
    took.sort()
    print(f"{what:<40} p50 {took[len(took) // 2] * 1000:7.2f} ms  "
          f"max {took[-1] * 1000:7.2f} ms")


async def lag(draw: Callable[[], Any], threaded: bool, runs: int = 20) -> float:
    """The event loop's worst lateness (ms) for a 1 ms tick while ``draw`` runs ``runs``
    times, on the loop or in a worker thread (as ``Shown.drawn`` does)."""
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, time.perf_counter() - start - 0.001)

    ticker = asyncio.create_task(tick())
    for _ in range(runs):
        if threaded:
            await asyncio.to_thread(draw)
        else:
            draw()
        await asyncio.sleep(0.002)
    done = True
    await ticker
    return worst * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=30)
    args = parser.parse_args()
    warm()
    session = longest(args.sessions)
    print(f"longest of {args.sessions}: {len(session.moves)} moves, games "
          f"{session.games_won}")
    state = saved_state(session)
    print(f"saved state {len(state) / 1024:.1f} KB")
    timed("saved_state (each save)", lambda: saved_state(session))
    timed("load (json + session_from_json)", lambda: session_from_json(json.loads(state)))
    timed("Session.replay (whole session)", lambda: Session.replay(
        session.rules, session.seed, session.moves, session.first_deal))
    timed("verify_file", lambda: verify_file(session, NAMES, "0" * 32))
    # The busiest positions: replayed move by move, the biggest table and hand drawn.
    replayed = Session(session.rules, session.seed, first_deal=session.first_deal)
    worst_table = worst_hand = worst_panel = 0.0
    busiest = replayed.view(SPECTATOR)
    for move in session.moves:
        replayed.apply(move, replayed.to_act)
        spect = replayed.view(SPECTATOR)
        mine = replayed.view(replayed.to_act) if not replayed.over else replayed.view(0)
        start = time.perf_counter()
        draw_table_png(spect, NAMES)
        if time.perf_counter() - start > worst_table:
            worst_table, busiest = time.perf_counter() - start, spect
        start = time.perf_counter()
        draw_hand_png(mine)
        worst_hand = max(worst_hand, time.perf_counter() - start)
        start = time.perf_counter()
        hand_embed(mine, NAMES, 1, tr=EN, order=HandOrder.SUIT)
        table_embed(spect, NAMES, 1, tr=EN)
        hand_panel(mine, 1, 1, tr=EN, order=HandOrder.SUIT, hint=False)
        worst_panel = max(worst_panel, time.perf_counter() - start)
    print(f"{'table picture, worst position':<40} {worst_table * 1000:7.2f} ms")
    print(f"{'hand picture, worst position':<40} {worst_hand * 1000:7.2f} ms")
    print(f"{'embeds + hand panel, worst position':<40} {worst_panel * 1000:7.2f} ms")
    def draw() -> bytes:
        return draw_table_png(busiest, NAMES)

    for threaded in (False, True):
        where = "in a thread" if threaded else "on the loop"
        print(f"{'loop lag, busiest table drawn ' + where:<40} "
              f"{asyncio.run(lag(draw, threaded)):7.2f} ms")


if __name__ == "__main__":
    main()
