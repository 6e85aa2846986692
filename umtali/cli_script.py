"""``python -m umtali script`` (moves read from standard input, applied from a seed or a deal
file) and ``simulate`` (self-play statistics, in English: a developer's figures)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import TextIO

from umtali.cli_moves import LINE_LIMIT
from umtali.cli_verify import plain, said
from umtali.codec import deal_from_json, session_to_json
from umtali.errors import UmtaliError
from umtali.events import Event, HandEnded
from umtali.i18n import Tr
from umtali.moves import Move
from umtali.players import GreedyPlayer, Player, RandomPlayer
from umtali.rules import RuleSet
from umtali.session import Deal, Session
from umtali.text import describe


def rules_of(args: argparse.Namespace) -> RuleSet:
    """The rule set the command line names."""
    return RuleSet.named(args.variant, optional_melding=args.optional_melding)


def run_script(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, tr: Tr) -> int:
    deal: Deal | None = None
    if args.deal is not None:
        try:
            with open(args.deal, encoding="utf-8") as f:
                deal = deal_from_json(json.load(f))
        # ValueError: bad JSON or UTF-8, a number past 4,300 digits; RecursionError: arrays
        # nested thousands deep.
        except (OSError, ValueError, RecursionError, UmtaliError) as e:
            print(tr("cannot read the fixed deal: {error}", error=said(tr, e)), file=sys.stderr)
            return 2
    try:
        session = Session(rules_of(args), args.seed, deal)
    except ValueError as e:
        print(tr("cannot start from that deal: {error}", error=said(tr, e)), file=sys.stderr)
        return 2
    names = (tr.ctx("a name at the table", "Player 1"), tr.ctx("a name at the table", "Player 2"))
    events: list[Event] = list(session.opening)
    status = 0
    for number, line in enumerate(stdin, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if session.over:
            print(tr("line {number}: the session is over", number=number), file=sys.stderr)
            status = 1
            break
        # The line as quoted back: a file of moves may come from anyone, and must not redraw
        # the terminal (escape sequences), nor fill it (a line longer than any move).
        if len(text) >= LINE_LIMIT:
            print(tr("line {number}: {move}: {error}", number=number,
                     move=plain(text[:40]) + "…", error=tr(
                         "That line is too long to be a move: a move is a few words, like "
                         "'meld 8D 9D 10D'.")), file=sys.stderr)
            status = 1
            break
        try:
            events.extend(session.apply(Move.parse(text)))
        except UmtaliError as e:
            print(tr("line {number}: {move}: {error}", number=number, move=plain(text),
                     error=tr(e.text)), file=sys.stderr)
            status = 1
            break
    if args.json:
        json.dump(
            {
                "events": [e.to_json() for e in events],
                "state": session_to_json(session),
                "scores": {
                    "game": list(session.game_scores()),
                    "games_won": list(session.games_won),
                    "winner": session.winner,
                },
            },
            stdout,
            indent=1,
        )
        stdout.write("\n")
    else:
        for event in events:
            stdout.write(describe(event, names, tr) + "\n")
        if not session.over:
            stdout.write(tr("To act: {name}. Legal: {moves}", name=names[session.to_act],
                            moves=", ".join(str(m) for m in session.legal_moves())) + "\n")
    return status


def run_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    rules = rules_of(args)
    ends: Counter[str] = Counter()
    hands = turns = moves = 0
    points = [0, 0]
    seed = args.seed
    start = time.perf_counter()
    while hands < args.hands:
        session = Session(rules, seed)
        players: list[Player] = (
            [RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")]
            if args.players == "random" else [GreedyPlayer(), GreedyPlayer()]
        )
        seed += 1
        # Every move asks its seat's view and plays through the session, as the bot and the
        # computers do. The session's methods are bound once a session, and its moves counted
        # at its end (``session.moves``); a hand's end is looked for only between hands.
        view, apply = session.view, session.apply
        choose = (players[0].choose, players[1].choose)
        while session.winner < 0:
            hand = session.hand
            while hand.reason is None:
                seat = hand.turn
                events = apply(choose[seat](view(seat)))
            for e in events:
                if isinstance(e, HandEnded):
                    hands += 1
                    turns += hand.turns
                    ends[e.reason.value] += 1
                    points[0] += e.scores[0]
                    points[1] += e.scores[1]
            if hands >= args.hands:
                break
        moves += len(session.moves)
    elapsed = time.perf_counter() - start
    out = stdout.write
    out(f"hands: {hands} ({args.players} players, {rules.describe()})\n")
    out(f"average turns per hand: {turns / max(hands, 1):.1f}; moves per hand: "
        f"{moves / max(hands, 1):.1f}\n")
    for reason, n in ends.most_common():
        out(f"  {reason}: {n} ({100 * n / hands:.1f}%)\n")
    out(
        f"average points per hand: seat 1 {points[0] / hands:.1f}, "
        f"seat 2 {points[1] / hands:.1f}\n"
    )
    out(f"hands per second: {hands / elapsed:.0f}\n")
    return 0
