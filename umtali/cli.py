"""``python -m umtali``: play in the terminal, replay a script of moves, simulate self-play, or
verify that a session's deals came from its committed seed.

This is the one place in the package that reads input and writes output; the engine itself
never does.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import TextIO

from umtali.ai import LEVELS as AI_LEVELS
from umtali.codec import deal_from_json, session_to_json
from umtali.errors import UmtaliError
from umtali.events import Event, HandEnded
from umtali.fairness import Check, Mismatch, Verdict, seed_value, verify
from umtali.moves import Move
from umtali.players import GreedyPlayer, Player, RandomPlayer
from umtali.replay import ReplayFile
from umtali.replay import from_json as replay_from_json
from umtali.rules import RuleSet
from umtali.session import Deal, Session
from umtali.text import describe, render_view

LEVELS: dict[str, Callable[[int], Player]] = {
    **AI_LEVELS,
    "random": lambda seed: RandomPlayer(seed),
}

PLAY_HELP = """\
Type a move, or the number of a move from the list.
  draw               draw the top card of the stock
  take               take the top card of the discard pile
  take 2             take the top two (only if you meld both this turn)
  meld 8D 9D 10D     lay a new meld: sequence, group, marriage (K Q), a lone jack,
                     or a pair as your last meld when going out
  extend 7D 8D       lay 7D on the meld that holds 8D
  discard KS         end your turn; 'discard KS down' lays your last card face down
Cards: rank A 2-10 (or T) J Q K, suit S H D C or ♠ ♥ ♦ ♣, either order, any case.
Other commands: moves, table, help, quit."""


def _rules(args: argparse.Namespace) -> RuleSet:
    return RuleSet.named(args.variant, optional_melding=args.optional_melding)


def _add_rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=["english", "russian"], default="english",
                   help="english (default): 11-card deal; russian: upcard deal, low card deals")
    p.add_argument("--optional-melding", action="store_true",
                   help="house rule: melding is not compulsory")


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m umtali", description="Umtali, two-player rummy."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play in the terminal against the computer")
    _add_rule_options(play)
    play.add_argument("--seed", type=seed_value, default=None,
                      help="fix the shuffles (default: random)")
    play.add_argument("--hotseat", action="store_true", help="two people at one keyboard")
    play.add_argument("--level", choices=sorted(LEVELS), default="normal",
                      help="the computer's level: easy, normal (default) or hard")
    play.add_argument("--name", default="Player", help="your name at the table")

    script = sub.add_parser("script", help="apply moves read from standard input")
    _add_rule_options(script)
    script.add_argument("--seed", type=seed_value, default=0,
                        help="seed of the shuffles, a number or a text (default 0)")
    script.add_argument("--deal", default=None, metavar="FILE",
                        help="a JSON deal file fixing the first hand (see docs/DEAL_FORMAT.md)")
    script.add_argument(
        "--json", action="store_true", help="print events, state and scores as JSON"
    )

    sim = sub.add_parser("simulate", help="self-play statistics")
    _add_rule_options(sim)
    sim.add_argument("--hands", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", choices=["random", "greedy"], default="random")

    check = sub.add_parser(
        "verify", help="check that a session's deals came from its committed seed",
        description="Check a replay file: the seed and salt must open the commitment posted "
                    "before the first deal, and every deal and stock rebuild must be the one "
                    "the seed gives. Without options, the commitment, seed and salt are read "
                    "from the file. Exit status: 0 fair, 1 mismatch, 2 bad input.")
    check.add_argument("replay", metavar="REPLAY.json", help="the session's replay file")
    check.add_argument("--commitment", help="the commitment posted before the first deal "
                                            "(64 hex digits)")
    check.add_argument("--seed", help="the seed revealed when the session ended")
    check.add_argument("--salt", help="the salt revealed when the session ended")

    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return _play(args, stdin, stdout)
        if args.command == "script":
            return _script(args, stdin, stdout)
        if args.command == "verify":
            return _verify(args, stdout)
        return _simulate(args, stdout)
    except (KeyboardInterrupt, EOFError):
        print("\nBye.", file=stdout)
        return 0


def _play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    session = Session(_rules(args), seed)
    names = (args.name, "Player 2") if args.hotseat else (args.name, "Computer")
    computer = None if args.hotseat else LEVELS[args.level](seed)
    out = stdout.write
    out(f"Umtali, seed {seed}. Type 'help' for the notation.\n")
    pending: list[Event] = list(session.opening)
    while True:
        seat = session.to_act if args.hotseat else 0
        for e in pending:
            out(describe(e.for_seat(seat), names) + "\n")
        pending = []
        if session.over:
            return 0
        actor = session.to_act
        if computer is not None and actor == 1:
            pending = session.apply(computer.choose(session.view(1)))
            continue
        view = session.view(actor)
        out("\n" + render_view(view, names) + "\n")
        legal = view.legal_moves
        out("Moves: " + ", ".join(f"{i}) {m.text(symbols=True)}" for i, m in
                                   enumerate(legal, 1)) + "\n")
        while True:
            out(f"{names[actor]}> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                raise EOFError
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit"):
                out("Bye.\n")
                return 0
            if word in ("help", "?"):
                out(PLAY_HELP + "\n")
                continue
            if word in ("moves", "table"):
                out(render_view(view, names) + "\n")
                continue
            try:
                move = legal[int(text) - 1] if text.isdigit() else Move.parse(text)
                if text.isdigit() and int(text) < 1:
                    raise IndexError
                pending = session.apply(move)
                break
            except IndexError:
                out(f"There is no move {text}: choose 1 to {len(legal)}.\n")
            except UmtaliError as e:
                out(f"{e}.\n")


def _script(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    deal: Deal | None = None
    if args.deal is not None:
        try:
            with open(args.deal, encoding="utf-8") as f:
                deal = deal_from_json(json.load(f))
        except (OSError, json.JSONDecodeError, UmtaliError) as e:
            print(f"cannot read the deal file: {e}", file=sys.stderr)
            return 2
    try:
        session = Session(_rules(args), args.seed, deal)
    except ValueError as e:
        print(f"cannot start from that deal: {e}", file=sys.stderr)
        return 2
    names = ("Player 1", "Player 2")
    events: list[Event] = list(session.opening)
    status = 0
    for number, line in enumerate(stdin, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if session.over:
            print(f"line {number}: the session is over", file=sys.stderr)
            status = 1
            break
        try:
            events.extend(session.apply(Move.parse(text)))
        except UmtaliError as e:
            print(f"line {number}: {text}: {e}", file=sys.stderr)
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
            stdout.write(describe(event, names) + "\n")
        if not session.over:
            stdout.write(f"To act: {names[session.to_act]}. Legal: "
                         + ", ".join(str(m) for m in session.legal_moves()) + "\n")
    return status


def _simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    rules = _rules(args)
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
        while not session.over and hands < args.hands:
            seat = session.to_act
            hand = session.hand
            move = players[seat].choose(session.view(seat))
            for e in session.apply(move):
                if isinstance(e, HandEnded):
                    hands += 1
                    turns += hand.turns
                    ends[e.reason.value] += 1
                    points[0] += e.scores[0]
                    points[1] += e.scores[1]
            moves += 1
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


# -- verify ---------------------------------------------------------------------------------


def _verify(args: argparse.Namespace, stdout: TextIO) -> int:
    try:
        with open(args.replay, encoding="utf-8") as f:
            replay = replay_from_json(json.load(f))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, UmtaliError) as e:
        print(f"cannot read the replay file: {e}", file=sys.stderr)
        return 2
    reveal = replay.reveal
    commitment = args.commitment or replay.commitment
    seed = args.seed if args.seed is not None else reveal.seed if reveal else None
    salt = args.salt if args.salt is not None else reveal.salt if reveal else None
    missing = [name for name, value in
               (("--commitment", commitment), ("--seed", seed), ("--salt", salt))
               if value is None]
    if commitment is None or seed is None or salt is None:
        print(f"the replay file does not hold them: give {', '.join(missing)}",
              file=sys.stderr)
        return 2
    try:
        verdict = verify(commitment, seed, salt, replay)
    except ValueError as e:
        print(f"cannot verify: {e}", file=sys.stderr)
        return 2
    for line in _verdict_lines(verdict, replay, seed, salt, from_file=args.commitment is None):
        stdout.write(line + "\n")
    return 0 if verdict.fair else 1


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _verdict_lines(v: Verdict, replay: ReplayFile, seed: object, salt: str,
                   from_file: bool) -> list[str]:
    lines = [f"Commitment: {v.commitment}"]
    if from_file:
        lines.append("  (read from the file: check it is the one the bot posted before the "
                     "first deal)")
    if v.mismatch is None:
        return [
            *lines,
            f"Seed {seed} and salt {salt} open it.",
            f"The draw for first dealer, {_plural(v.deals, 'deal')} and "
            f"{_plural(v.rebuilds, 'stock rebuild')} are the ones this seed gives; the moves "
            "are legal and lead to the recorded scores and result.",
            "FAIR: the cards came from the seed committed to before play.",
        ]
    cards = v.mismatch.check in (Check.COMMITMENT, Check.FIXED_DEAL, Check.DEALER_DRAW,
                                 Check.DEAL, Check.REBUILD)
    return [*lines, *_mismatch_lines(v.mismatch, replay.players),
            "NOT VERIFIED: " + ("these cards did not come from the committed seed." if cards
                                else "the file's moves do not lead to what it records.")]


def _seat(seat: str, players: tuple[str, str]) -> str:
    n = int(seat.split()[-1])
    return f"{players[n]}'s hand (seat {n})"


def _mismatch_lines(m: Mismatch, players: tuple[str, str]) -> list[str]:
    where = f"Game {m.game}, hand {m.hand}: "
    rec, exp = " ".join(m.recorded), " ".join(m.expected)
    if m.check is Check.COMMITMENT:
        if m.part == "file":
            return [f"The file names another commitment: {rec}."]
        return [f"The seed and salt do not open it: they give {exp}."]
    if m.check is Check.FIXED_DEAL:
        return ["The first hand was a fixed deal, not shuffled from the seed."]
    if m.check is Check.DEALER_DRAW:
        return ["The draw for first dealer is not the one the seed gives.",
                f"  the file: {rec}", f"  the seed: {exp}"]
    if m.check is Check.MOVE:
        return [f"{where}move {m.move + 1} ({rec or 'missing'}) cannot be played: {m.reason}."]
    if m.check is Check.HANDS:
        return [f"{where}the file's hands and the moves disagree ({m.part}: the file has "
                f"{rec}, the moves give {exp})."]
    if m.check in (Check.SCORES, Check.RESULT):
        return [f"{where}the moves do not lead to the recorded {m.part}: the file says "
                f"{rec}, the moves give {exp}."]
    what = "the deal" if m.check is Check.DEAL else "the stock rebuild"
    if m.part.startswith("seat"):
        extra = sorted(set(m.recorded) - set(m.expected))
        lacking = sorted(set(m.expected) - set(m.recorded))
        return [f"{where}{_seat(m.part, players)} in {what} is not the one the seed gives.",
                f"  the file has {' '.join(extra) or 'the same cards'} where the seed gives "
                f"{' '.join(lacking) or 'the same cards'}"]
    if m.part in ("stock", "discard"):
        top = "from the top" if m.part == "stock" else "from the bottom"
        at = m.position
        got = m.recorded[at] if at < len(m.recorded) else "nothing"
        want = m.expected[at] if at < len(m.expected) else "nothing"
        return [f"{where}the {m.part} in {what} is not the one the seed gives.",
                f"  card {at + 1} {top}: the file has {got}, the seed gives {want}"]
    if m.part == "dealer":
        return [f"{where}the file has seat {rec} dealing, the seed gives seat {exp}."]
    if m.part == "after":
        return [f"{where}the file rebuilds the stock after move {rec} of the hand, the moves "
                f"rebuild it after move {exp}."]
    return [f"{where}the file records {rec} stock rebuilds, the moves make {exp}."]
